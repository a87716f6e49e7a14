"""Source: https://github.com/patrick-kidger/equinox/issues/102
Library: equinox
Correct: the GELU module proposed in the report holds only a bool, marked static; an equinox Module hashes and compares by its fields, so jax.jit of the module itself (the callable it is given) hashes and compares it by value, and nothing in it can change after it is built.
Transcribed: the report's class, with static_field imported from equinox and the import of lax added; jax.jit of two instances and their calls were added.
"""
import jax
import jax.numpy as jnp
from jax import lax
from equinox import Module, static_field


class GELU(Module):
    approximate: bool = static_field()

    def __init__(self, approximate: bool = False):
        super().__init__()
        self.approximate = approximate

    def __call__(self, x, *, key = None):
        if self.approximate:
            sqrt_2_over_pi = jnp.sqrt(2 / jnp.pi).astype(x.dtype)
            cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (x + 0.044715 * (x ** 3))))
            return x * cdf
        else: 
            return jnp.array(x * (lax.erf(x / jnp.sqrt(2)) + 1) / 2, dtype=x.dtype)


x = jnp.linspace(-1.0, 1.0, 5)
print(jax.jit(GELU())(x))
print(jax.jit(GELU(approximate=True))(x))
