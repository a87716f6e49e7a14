"""Source: https://github.com/jax-ml/jax/pull/2379
Library: plain-jax
Correct: jnp.pad recompiled on every call when pad_width was a list, because its jitted helper _pad takes pad_width in a static position (static_argnums=(1, 2)) and a list was hashed by identity; the pull request converts a list to a tuple before the call, so equal pad widths hash equal and the helper compiles once. A checker that followed the list from the caller into the static position without seeing the conversion would be wrong here.
Transcribed: pad with the pull request's conversion and _pad's jit declaration from jax/numpy/lax_numpy.py of that time; _pad's body, which dispatches to per-mode helpers, is replaced by a call of today's jnp.pad, and the @_wraps(onp.pad) decorator is left out; two calls with a list of (before, after) pairs and a print in _pad were added.
Hard: to stay silent, the checker must see that the list parameter is rebound to tuple(pad_width) before it reaches the static position; the call passes a list literal.
"""
from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=(1, 2))
def _pad(array, pad_width, mode, constant_values):
  print("compiling _pad")
  return jnp.pad(array, pad_width, mode=mode, constant_values=constant_values)


def pad(array, pad_width, mode='constant', constant_values=0):
  if isinstance(pad_width, list):
    pad_width = tuple(pad_width)
  return _pad(array, pad_width, mode, constant_values)


print(pad(jnp.ones(3), [(1, 2)]))
print(pad(jnp.ones(3), [(1, 2)]))
