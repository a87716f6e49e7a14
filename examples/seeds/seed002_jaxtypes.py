"""A pytree with a static field, with jaxtypes: ``a`` is ``Static``, ``x_array`` is traced; new arrays do not recompile."""

import jax
import jax.numpy as jnp

import jaxtypes
from jaxtypes import Static


@jaxtypes.pytree_dataclass
class Params:
    x_array: jax.Array
    a: Static[int]

    def one_step(self, state: jax.Array, input: jax.Array) -> jax.Array:
        return (self.x_array + state + jnp.ones(self.a)) * input


@jaxtypes.jit
def example(params: Params) -> tuple[jax.Array, jax.Array]:
    def body(state: jax.Array, input: jax.Array) -> tuple[jax.Array, jax.Array]:
        new = params.one_step(state, input)
        return new, new

    return jax.lax.scan(body, jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0, 3.0]))
