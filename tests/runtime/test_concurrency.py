"""Threads: jaxtypes.jit and static classes are as safe and as cache-friendly as jax.jit itself.

Eight threads start together (a barrier) and each rebuilds equal static configs on every call,
so interning, hashing and jit's cache are all hit concurrently. Traces are counted with a
Python side effect in the function body, which runs only when jit traces.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import jax
import jax.numpy as jnp
import pytest

import jaxtypes
from jaxtypes import Static, static_dataclass

T = TypeVar("T")

THREADS = 8
CALLS = 25


@static_dataclass
class Config:
    scale: int
    name: str = "c"


@static_dataclass(intern=False)
class LooseConfig:
    scale: int
    name: str = "c"


@static_dataclass
class Churned:
    n: int
    label: str = "churn"


@pytest.fixture
def frequent_thread_switches() -> Iterator[None]:
    """Switch threads every microsecond rather than every 5 ms, so that threads interleave
    inside a constructor."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def in_threads(work: Callable[[int], T]) -> list[T]:
    """``work(i)`` for i in range(THREADS), all started at once."""
    barrier = threading.Barrier(THREADS)

    def run(index: int) -> T:
        barrier.wait()
        return work(index)

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, range(THREADS)))


def traces_and_results(jit: Callable[[Any], Any], config_class: type) -> tuple[int, list[list[float]]]:
    """Jit a function with a static config, call it from every thread; how often it traced."""
    traces = []

    def scaled(x: jax.Array, config: Static[Any]) -> jax.Array:
        traces.append(config.scale)
        return x * config.scale

    jitted = jit(scaled)
    x = jnp.arange(3.0)

    def work(index: int) -> list[float]:
        return [float(jitted(x, config_class(index % 2 + 1)).sum()) for _ in range(CALLS)]

    results = in_threads(work)
    return len(traces), results


def plain_jit(fn: Callable[..., Any]) -> Any:
    return jax.jit(fn, static_argnames="config")


def test_jaxtypes_jit_in_threads_is_correct_and_traces_no_more_than_jax_jit() -> None:
    for config_class in (Config, LooseConfig):
        plain_traces, _ = traces_and_results(plain_jit, config_class)
        traces, results = traces_and_results(jaxtypes.jit, config_class)
        for index, sums in enumerate(results):
            assert sums == [3.0 * (index % 2 + 1)] * CALLS
        assert 2 <= traces <= max(plain_traces, 2)


def test_the_compile_log_counts_each_trace_once_in_threads() -> None:
    @jaxtypes.jit
    def shifted(x: jax.Array, config: Config) -> jax.Array:
        return x + config.scale

    in_threads(lambda index: [shifted(jnp.zeros(2), Config(index % 4)) for _ in range(CALLS)])
    assert sorted(c.arguments["config"].scale for c in shifted.compiles) == [0, 1, 2, 3]


def test_interned_values_built_in_threads_are_one_object_per_value() -> None:
    built = in_threads(lambda index: [Config(n % 5, str(n % 3)) for n in range(200)])
    for n in range(200):
        same = {id(objects[n]) for objects in built}
        assert len(same) == 1
    assert len({id(obj) for objects in built for obj in objects}) == 15


def test_values_without_interning_built_in_threads_hash_and_compare_by_value() -> None:
    built = in_threads(lambda index: [LooseConfig(n % 5, str(n % 3)) for n in range(200)])
    for n in range(200):
        first = built[0][n]
        assert all(objects[n] == first and hash(objects[n]) == hash(first) for objects in built)
        assert len({id(objects[n]) for objects in built}) == THREADS


def test_interning_holds_while_equal_values_are_freed_and_rebuilt_in_threads(frequent_thread_switches: None) -> None:
    """Each thread keeps its last three values and checks that rebuilding each gives it back,
    while the other threads free and rebuild the same values: two live equal objects, or a live
    object whose entry was removed, would be caught."""

    def work(index: int) -> int:
        held: list[Churned] = []
        wrong = 0
        for step in range(400):
            held = [*held[-2:], Churned((index + step) % 5)]
            wrong += sum(Churned(value.n) is not value for value in held)
        return wrong

    assert in_threads(work) == [0] * THREADS
    gc.collect()
    assert len(Churned.__jaxtypes_static__.table) == 0  # type: ignore[attr-defined]
