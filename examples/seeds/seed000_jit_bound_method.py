"""Jit on a method of a plain class, second example, as written: ``jit(c.calc)`` bakes ``c`` in; mutating it is ignored."""

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    # No decorator here !
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y


c = CustomClass(2, True)
jitted_calc = jit(c.calc)
print(jitted_calc(3))
c.mul = False
print(jitted_calc(3))  # still 6: stale
