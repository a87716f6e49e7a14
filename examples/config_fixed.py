"""The same configs, fixed: mypy with the plugin reports nothing here."""

from __future__ import annotations

from typing import Callable, Optional

import jax

from jaxtypes import Static, jit, pytree_dataclass, static_dataclass


@static_dataclass
class Vehicle:
    num_wheels: int


class Model:
    def step(self, x: float) -> float:
        return x * 2


@static_dataclass
class SolverConfig:
    layers: tuple[int, ...]  # hashable
    step_fn: Callable[[Model, float], float]  # the plain function; the model is passed separately


@static_dataclass
class Config:
    steps: int = 10


@pytree_dataclass
class State:
    x: jax.Array  # the arrays live in the pytree, not in the static config
    weights: jax.Array
    vehicle: Static[Vehicle]
    order: Static[Optional[int]] = None


def build() -> SolverConfig:
    return SolverConfig((1,), step_fn=Model.step)


@jit
def simulate(state: State, vehicle: Static[Vehicle]) -> jax.Array:  # a static_dataclass: hashed by value
    return state.x * vehicle.num_wheels
