"""Source: https://github.com/jax-ml/jax/issues/6853
Library: plain-jax
Reported: marking a dict argument static to slice with one of its entries fails with 'Non-hashable static arguments are not supported'.
Transcribed: the report's second attempt (with static_argnums); its first, without it, fails differently and is left out.
"""
from functools import partial

import jax.numpy as jnp
import numpy as np
from jax import jit

@partial(jit, static_argnums=1)  # expect: static-unhashable
def foo(x, d: dict):
  return x[:d['num']] + d['val']

foo(jnp.arange(10), {'num': 5, 'value': np.arange(5)})  # expect: static-unhashable
