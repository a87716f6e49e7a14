"""Source: https://github.com/jax-ml/jax/issues/1038
Library: plain-jax
Reported: random.normal is about 1000x slower when shape is a list instead of a tuple: normal passes shape into a static position of the jitted _normal, and a list, unhashable, was hashed by identity, so every fresh list recompiled (today jit refuses it with 'Non-hashable static arguments are not supported').
Transcribed: normal and _normal's decorator and signature from jax/random.py at commit 5607e46922b8d7c7704575ad6020bb8a9c9c037d, the version the report timed; xla_bridge.canonicalize_dtype became jax.dtypes.canonicalize_dtype and onp became numpy; _normal's body, which called private helpers of that file, became one call of jax.random.normal on the tuple of the shape; normal's docstring is left out; the report's timed call (an image in the report, quoted in the maintainer's reply: shape = [batch_size, D]; normal(key, shape)) with a key and sizes was added.
Hard: shape has no declared type; the list is made by the caller and reaches _normal's static position 1 through normal's parameter.
"""
from functools import partial

import numpy as onp
import jax
from jax import jit


def normal(key, shape=(), dtype=onp.float64):
  dtype = jax.dtypes.canonicalize_dtype(dtype)
  return _normal(key, shape, dtype)  # expect: static-unhashable

@partial(jit, static_argnums=(1, 2))
def _normal(key, shape, dtype):
  return jax.random.normal(key, tuple(shape), dtype)


key = jax.random.PRNGKey(0)
batch_size, D = 128, 10
shape = [batch_size, D]
normal(key,  shape)
