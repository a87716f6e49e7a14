"""Jit on a method of a plain class, first example, as written: ``@jit`` on a method of a plain class fails at run time."""

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit  # <---- How to do this correctly?
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y


c = CustomClass(2, True)
c.calc(3)
