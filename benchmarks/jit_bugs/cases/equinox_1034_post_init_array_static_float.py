"""Source: https://github.com/patrick-kidger/equinox/issues/1034
Library: equinox
Reported: a static field declared float is assigned a jnp array in __post_init__; equinox warns 'A JAX array is being set as static!' (the maintainers call it a footgun: the array becomes part of the treedef jit hashes).
Hard: the field is declared float; only the assignment in __post_init__ (jnp.sqrt of two fields) shows that it holds an array.
"""
import equinox as eqx
import jax
import jax.numpy as jnp

class MyFunc(eqx.Module):
    a : float
    b : float
    len : float = eqx.field(init=False, static=True)  # expect: static-dynamic-child

    def __post_init__(self):
        self.len = jnp.sqrt(self.a**2 + self.b**2)

    def __call__(self, x):
        return self.len * x

MyFunc(a=3.0, b=4.0)(jax.numpy.array(1.0))
