"""Jit on a method of a plain class, as described: ``static_argnums=0`` on a plain class hashes ``self`` by identity, so mutating it is ignored."""

from functools import partial

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y


c = CustomClass(2, True)
print(c.calc(3))
c.mul = False
print(c.calc(3))  # still 6: stale
