"""Source: https://github.com/jax-ml/jax/issues/39858
Library: plain-jax
Reported: the documented static-self example hashes a tuple holding a JAX array, so hashing the instance fails with 'unhashable type'.
Transcribed: an instance and a call of the method were added (the report only shows the class and hash(c)).
Hard: the class defines its own __hash__ and __eq__; the array is in an attribute assigned in __init__.
"""
import jax.numpy as jnp
from jax import jit

class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit(static_argnums=0)  # expect: static-dynamic-child
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((self.x, self.mul))

    def __eq__(self, other):
        return (
            isinstance(other, CustomClass)
            and (self.x, self.mul) == (other.x, other.mul)
        )

c = CustomClass(jnp.arange(3.0), True)
print(c.calc(3))
