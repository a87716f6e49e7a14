"""Source: https://github.com/patrick-kidger/equinox/issues/558
Library: plain-jax
Reported: "scan not working with module methods": passing the bound method `cell.update` of an equinox Module as the function of `lax.scan` worked in equinox 0.10.11 but fails from 0.11.0 on. A bound method of a Module is itself a Module (a partial holding the instance), and `lax.scan` hashes the function it is given to cache its trace; the instance holds the array `w`, so hashing it fails. Running it here (jax 0.10.2, current equinox) raises `TypeError: unhashable type: 'jaxlib._jax.ArrayImpl'` at the `lax.scan` call.
Transcribed: the report's code as written; the expected output line is left as the report has it.
Hard: the value in the hashed position is `cell.update`, a bound method; only its instance's field `w: Array` (assigned a jnp array) makes it unhashable, and the position is lax.scan's function argument rather than a jit static argument.
"""
import equinox as eqx
from jax import Array, lax, numpy as jnp


class RecurrentCell(eqx.Module):
    w: Array

    def update(self, state, input) -> tuple[Array, Array]:
        return state, input * self.w


start_state = jnp.array([0.0])
inputs = jnp.array([1.0, 2.0, 3.0])
cell = RecurrentCell(w=jnp.array(2.0))
states, outputs = lax.scan(cell.update, start_state, inputs)  # expect: static-dynamic-child
print(outputs)
