"""A plain class as a static argument (TORAX), with jaxtypes: a static class cannot be mutated; ``replace`` gives the new result."""

import dataclasses

import jax
import jax.numpy as jnp

import jaxtypes
from jaxtypes import Static


@jaxtypes.static_dataclass
class Vehicle:
    num_wheels: int


@jaxtypes.jit
def f(x: Static[Vehicle]) -> jax.Array:
    return jnp.asarray(x.num_wheels)


x = Vehicle(2)
print(f(x))
x = dataclasses.replace(x, num_wheels=4)
print(f(x))
