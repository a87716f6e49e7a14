"""Source: https://github.com/jax-ml/jax/issues/6853
Library: plain-jax
Reported: The reporter wanted a dict argument (annotated `d: dict`) used for slicing to be a
compile-time constant, so marked it with static_argnums=1; calling it with a dict that also holds
a numpy array raises "ValueError: Non-hashable static arguments are not supported."
Transcribed: Added imports; the second (static_argnums) snippet is kept as reported, including the
reporter's 'value'/'val' key mismatch (hashing fails before the body ever runs).
Hard: The static parameter is annotated `dict` (decorator line), and the call passes a dict
literal whose value is np.arange(5) into static position 1.
"""
from functools import partial

import jax.numpy as jnp
import numpy as np
from jax import jit


@partial(jit, static_argnums=1)  # expect: static-unhashable
def foo(x, d: dict):
  return x[:d['num']] + d['val']


foo(jnp.arange(10), {'num': 5, 'value': np.arange(5)})  # expect: static-unhashable
