"""Static configs with the bugs jaxtypes catches: mypy with the plugin reports each one."""

from __future__ import annotations

import dataclasses
from typing import Callable, Optional

import jax

from jaxtypes import Static, jit, pytree_dataclass, static_dataclass


class Vehicle:
    """TORAX's example: a plain class, hashed by identity."""

    def __init__(self, num_wheels: int) -> None:
        self.num_wheels = num_wheels


class Model:
    def step(self, x: float) -> float:
        return x * 2


@static_dataclass
class SolverConfig:
    weights: jax.Array  # an array in a static config
    layers: list[int]  # unhashable
    step_fn: Callable[[float], float]


@static_dataclass(frozen=False)  # a mutable static config
class MutableConfig:
    steps: int = 10


@pytree_dataclass
class State:
    x: jax.Array
    vehicle: Static[Vehicle]  # hashes by identity: stale results after mutation
    order: Optional[Static[int]] = None  # the marker must be outermost


@dataclasses.dataclass(frozen=True)
class Wrapper:
    config: SolverConfig


def build(model: Model, weights: jax.Array) -> SolverConfig:
    return SolverConfig(weights, [1], step_fn=model.step)  # a bound method captures `model`


@jit
def simulate(state: State, vehicle: Static[Vehicle]) -> jax.Array:  # Vehicle hashes by identity
    return state.x * vehicle.num_wheels
