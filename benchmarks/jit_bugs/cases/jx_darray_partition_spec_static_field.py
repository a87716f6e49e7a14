"""Source: https://github.com/carlesoctav/jx/blob/3af9d6c5b4cb9dcf98f4e574622fb6a426af1dd8/jx/_darray.py
Library: jax-dataclass-registration
Correct: a register_dataclass field marked metadata=dict(static=True) holds an optional PartitionSpec, which is immutable and hashes by value, beside a data field holding the array.
Transcribed: the class from the file (its first_from helper is left out); two instances and a jitted function were added.
"""
import jax

import typing as tp
from dataclasses import dataclass, field
import jax.tree_util as jtu
from jax import P


@jtu.register_dataclass
@dataclass(slots = True)
class Darray:
    value: jax.Array
    pspec: P | None = field(metadata=dict(static=True), default = None)


f = jax.jit(lambda d: d.value * 2)
print(f(Darray(jax.numpy.ones(4), P())))
print(f(Darray(jax.numpy.zeros(4), P())))
