"""A nested static config touching every kind of value a fingerprint describes.

Imported by the fingerprint tests in this process and in separately started interpreters.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import sys
from collections.abc import Callable
from typing import NamedTuple

import jaxtypes


class Method(enum.Enum):
    EULER = 1
    RK4 = 2


def halve(x: float) -> float:
    return x / 2


def double(x: float) -> float:
    return x * 2


class Limits(NamedTuple):
    low: float
    high: float


@dataclasses.dataclass(frozen=True)
class Boundary:
    kind: str
    value: float


@jaxtypes.static_dataclass
class Solver:
    tolerance: float = 1e-6
    method: Method = Method.RK4
    update: Callable[[float], float] = halve
    limits: Limits = Limits(-math.inf, math.inf)


@jaxtypes.static_dataclass
class Transport:
    coefficient: float = 0.0
    boundary: Boundary = Boundary("dirichlet", 1.0)
    species: frozenset[str] = frozenset({"D", "T", "He3", "He4", "electrons", "impurity", "neon", "argon"})
    weights: complex = 1 + 2j


@jaxtypes.static_dataclass
class Config:
    solver: Solver = Solver()
    transport: Transport = Transport()
    sizes: tuple[int, ...] = (8, 16, 32)
    label: str = "run"
    tag: bytes = b"v1"
    seed: int | None = None
    flags: frozenset[tuple[str, bool]] = frozenset({("adaptive", True), ("implicit", False)})
    missing: float = math.nan
    fn_type: type = float
    singleton: object = jaxtypes.field(default=sys, hash_by_id=True)


def build() -> Config:
    return Config()
