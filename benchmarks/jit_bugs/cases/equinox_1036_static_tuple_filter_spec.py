"""Source: https://github.com/patrick-kidger/equinox/issues/1036
Library: plain-jax
Correct: the report's working variant: the filter_spec passed to eqx.partition is a nested tuple of bools, given in a static_argnames position of jax.jit; tuples of bools hash and compare by value, so the static declaration is sound (the report's failing variant, with params_mask traced, is a different error and is left out). A checker that reported a pytree-shaped value in a static position would be wrong here.
Transcribed: the report's third snippet, its imports, params and params_mask; a call and a print were added.
Hard: to stay silent, the checker must see that the static value is a nested tuple of bools, bound at module level.
"""
from functools import partial

import jax
import jax.numpy as jnp
import equinox as eqx


@partial(jax.jit, static_argnames=["params_mask"])
def partition(params, params_mask):
    return eqx.partition(params, filter_spec=params_mask)

params = ((1., 2.), 3.)
params_mask = ((True, False), False)

print(partition(params, params_mask))
