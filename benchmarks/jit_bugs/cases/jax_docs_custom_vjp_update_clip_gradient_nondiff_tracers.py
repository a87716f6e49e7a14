"""Source: https://github.com/jax-ml/jax/blob/441de475b6de056390dc8a1fad0bd5535f8199d0/docs/jep/4008-custom-vjp-update.md
Library: plain-jax
Reported: the JAX design note "custom_vjp and nondiff_argnums update guide" shows the "old way to write `clip_gradient`, which won't work when `hi` and/or `lo` are `Tracer`s from some JAX transformation": the clipping bounds are declared in `nondiff_argnums=(0, 1)`, and "you'll get a loud error in any case where something might go wrong (namely when there's a `Tracer` passed into a `nondiff_argnums` argument)". Running it here with the bounds passed to a jitted gradient (so they are tracers) raises `UnexpectedTracerError` ("Found a JAX Tracer object passed as an argument to a custom_vjp function in a position indicated by nondiff_argnums as non-differentiable").
Transcribed: the "old way" block as written, with `import jax.numpy as jnp` added (the block uses `jnp`); the guide shows no call, so a caller was added that differentiates `clip_gradient(lo, hi, x)` under `jax.jit` with `lo` and `hi` as arguments of the jitted function, the situation the guide describes.
Hard: the nondiff positions of a `jax.custom_vjp` are static positions (JAX refuses tracers there); `lo` and `hi` are parameters of a function that `jax.jit(jax.grad(...))` traces, so what reaches them is a tracer.
"""
from functools import partial
import jax
import jax.numpy as jnp

@partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo, hi, x):
  return x  # identity function

def clip_gradient_fwd(lo, hi, x):
  return x, None  # no residual values to save

def clip_gradient_bwd(lo, hi, _, g):
  return (jnp.clip(g, lo, hi),)

clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(x, lo, hi):
  return 3.0 * clip_gradient(lo, hi, x)  # expect: static-dynamic-child


print(jax.grad(clip_gradient, argnums=2)(-1.0, 1.0, 2.0))  # concrete bounds: works
try:
  print(jax.jit(jax.grad(loss))(2.0, -1.0, 1.0))
except Exception as e:
  print(type(e).__name__, str(e)[:300])
