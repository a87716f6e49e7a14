"""Source: https://github.com/patrick-kidger/equinox/issues/1011
Library: equinox
Correct: @jit on a method of an equinox Module: the Module is a pytree, so jit traces self's array field; the reporter says this version works (filter_jit is what broke).
Transcribed: the report's first class; jaxtyping's ArrayLike became jax.typing.ArrayLike (the benchmark imports no jaxtyping), its second class (cut off in the stored copy) is left out, and an instance and a call were added.
"""
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array, jit, lax
from jax.typing import ArrayLike

jax.config.update("jax_enable_x64", True)


class SomeClass1(eqx.Module):
    some_array: ArrayLike

    # Code breaks (TypeError: unhashable type: 'DynamicJaxprTracer') when using:
    # @eqx.filter_jit
    @jit
    def func(self, x) -> Array:
        del x
        return jnp.log(self.some_array)


print(SomeClass1(jnp.array([1.0, 2.0])).func(1.0))
