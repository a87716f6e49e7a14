"""Source: https://github.com/jax-ml/jax/issues/2813
Library: plain-jax
Reported: a list passed in a static position makes the function recompile on every call, because jit hashed it by identity.
Transcribed: the interactive session as a script.
"""
import jax

def g(x, y):
  print("recompiling")
  return x + y[0]

f = jax.jit(g, static_argnums=(1,))
f(1, [2, 3])  # expect: static-unhashable
f(1, [2, 3])  # expect: static-unhashable
