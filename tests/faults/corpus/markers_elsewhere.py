"""Static and Dynamic outside jaxtypes classes: plain classes, NamedTuple, TypedDict, functions."""
import dataclasses
from typing import NamedTuple, TypedDict

import jax

from jaxtypes import Dynamic, Static


class Plain:
    a: Static[int]
    b: Dynamic[jax.Array]

    def __init__(self, a: Static[int]) -> None:
        self.a = a


class Pair(NamedTuple):
    a: Static[list[int]]
    b: Dynamic[int]


class Options(TypedDict):
    a: Static[int]


@dataclasses.dataclass(frozen=True)
class Stdlib:
    a: Static[list[int]]


def function(a: Static[int], b: Dynamic[Static[int]]) -> Static[int]:
    value: Static[list[int]] = [a]
    return value[0]


jitted = jax.jit(function, static_argnums=(0, "b", 99))
