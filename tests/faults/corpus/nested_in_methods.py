"""A function nested in a method (mypy gives it a placeholder class with no MRO) calls a method
that holds a jitted local function, through ``self``."""

from functools import cached_property
from typing import Callable

import jax


class Model:
    @cached_property
    def per_observation(self) -> Callable:
        @jax.jit
        def per_observation(x):
            return x

        return per_observation

    @cached_property
    def total(self) -> Callable:
        def total(x):
            return self.per_observation(x)

        return total

    def run(self, x: jax.Array) -> jax.Array:
        def step(y: jax.Array) -> jax.Array:
            return self.scale * y

        return jax.jit(step)(x)

    scale = 2.0
