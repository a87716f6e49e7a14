"""Source: https://github.com/jax-ml/jax/issues/20889
Library: plain-jax
Reported: a user's repro posted by mattjj: `func = jax.custom_jvp(func_fwd, nondiff_argnums=(1,))` is called inside a `lax.scan` step with the boolean `mask` array, carried through the scan, in the nondiff position; `jax.grad(loss)(x, mask)` fails with "encountered an unexpected tracer" (the issue asks for a better error: "don't use nondiff_argnums for array-valued arguments"). Running it here (jax 0.10.2) raises `UnexpectedTracerError` ("Encountered an unexpected tracer ... bool[10] ... escape").
Transcribed: the repro as posted; only the try/except around the failing call and the prints were added.
Hard: the nondiff position of a `jax.custom_jvp` is a static position (its values are closed over by the rule, not traced); the value passed there is `carry[1]`, the carry of a `lax.scan` step, which is a tracer whatever the caller passed in.
"""
import jax
from jax import numpy as jnp

def func_fwd(arr, mask):
  return arr * mask

def func_jvp(mask, primals, tangents):
  def f(arr):
    return arr * mask
  return jax.jvp(f, primals, tangents)

func = jax.custom_jvp(func_fwd, nondiff_argnums=(1,))
func.defjvp(func_jvp)

def step(carry, _):
  return (func(*carry), carry[1]), None  # expect: static-dynamic-child

def loss(x, mask):
  carry, _ = jax.lax.scan(step, (x, mask), [None] * 2, length = 2)
  return carry[0].sum()

x = jnp.ones(10)
mask = jnp.zeros(10, dtype=bool)


try:
  gradients = jax.grad(loss)(x, mask)
  print("no error:", gradients)
except Exception as e:
  print(type(e).__name__, str(e)[:300])
