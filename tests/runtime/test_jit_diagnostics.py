"""Compile counting and recompile explanations of jaxtypes.jit, recorded at trace time only."""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import pytest

import jaxtypes
from jaxtypes import Static
from jaxtypes import RecompileWarning


class Vehicle:
    """A plain class (TORAX's example): compares and hashes by identity, so equal copies miss jit's cache."""

    def __init__(self, num_wheels: int) -> None:
        self.num_wheels = num_wheels


def test_count_and_reasons_name_the_changed_argument() -> None:
    @jaxtypes.jit
    def f(x: jax.Array, n: Static[int]) -> jax.Array:
        return x * n

    f(jnp.ones(3), 2)
    f(jnp.zeros(3), 2)  # new values, same shape: cached
    assert len(f.compiles) == 1
    f(jnp.ones(4), 2)
    f(jnp.ones(3, dtype=jnp.int32), 2)
    f(jnp.ones(3), 5)
    assert len(f.compiles) == 4
    reasons = [c.reasons for c in f.compiles]
    assert reasons[0] == ("first call",)
    assert reasons[1] == ("argument 'x' changed: f32[3] -> f32[4]",)
    assert reasons[2] == ("argument 'x' changed: f32[4] -> i32[3]",)  # against the latest of equally close compiles
    assert reasons[3] == ("static argument 'n' changed: 2 -> 5",)
    assert "compiled 4 time(s)" in f.compiles.explain()


def test_keyword_versus_positional_call_is_explained() -> None:
    @jaxtypes.jit
    def f(x: jax.Array, n: Static[int]) -> jax.Array:
        return x * n

    f(jnp.ones(1), 2)
    f(jnp.ones(1), n=2)
    assert len(f.compiles) == 2
    assert "passed by keyword" in f.compiles[1].reasons[0]


def test_calls_that_hit_the_cache_record_nothing() -> None:
    traces = []

    @jaxtypes.jit
    def f(x: jax.Array) -> jax.Array:
        traces.append(1)
        return x + 1

    for _ in range(20):
        f(jnp.ones(2))
    assert len(traces) == len(f.compiles) == 1


def test_equal_but_differently_hashed_static_value_is_explained_and_warned() -> None:
    @jaxtypes.jit(warn_on_recompile=True)
    def f(x: jax.Array, s: Static[object]) -> jax.Array:
        return x

    first = Vehicle(2)
    f(jnp.ones(1), first)
    with pytest.warns(RecompileWarning, match=r"jit-recompile") as record:
        f(jnp.ones(1), Vehicle(2))
    assert "static argument 's'" in str(record[0].message)
    assert len(f.compiles) == 2
    assert "Vehicle compares and hashes by identity" in f.compiles[1].reasons[0]


def test_no_warning_unless_asked() -> None:
    @jaxtypes.jit
    def f(x: jax.Array, s: Static[object]) -> jax.Array:
        return x

    with warnings.catch_warnings():
        warnings.simplefilter("error", RecompileWarning)
        first, second = Vehicle(2), Vehicle(2)
        f(jnp.ones(1), first)
        f(jnp.ones(1), second)
    assert "Vehicle compares and hashes by identity" in f.compiles[1].reasons[0]
