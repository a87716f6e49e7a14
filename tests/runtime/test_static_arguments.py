"""Static dataclasses as ``jax.jit`` static arguments: one compile per value, never a stale one."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import pytest

from jaxtypes import static_dataclass


@static_dataclass
class Vehicle:
    num_wheels: int


def count_traces(fn):  # type: ignore[no-untyped-def]
    traces: list[object] = []

    def traced(*args, **kwargs):  # type: ignore[no-untyped-def]
        traces.append(args)
        return fn(*args, **kwargs)

    return traced, traces


def test_torax_vehicle_cannot_be_mutated_and_replace_gives_the_new_result() -> None:
    traced, traces = count_traces(lambda x: x.num_wheels)
    f = jax.jit(traced, static_argnums=0)
    x = Vehicle(2)
    assert f(x) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        x.num_wheels = 4  # type: ignore[misc]
    x = dataclasses.replace(x, num_wheels=4)
    assert f(x) == 4
    assert len(traces) == 2


def test_equal_but_distinct_configs_compile_once() -> None:
    @static_dataclass(intern=False)
    class Config:
        scale: float
        layers: tuple[int, ...]

    traced, traces = count_traces(lambda x, config: x * config.scale)
    f = jax.jit(traced, static_argnames="config")
    configs = [Config(2.0, (1, 2)) for _ in range(10)]
    assert len({id(c) for c in configs}) == 10
    for config in configs:
        f(jnp.ones(2), config=config)
    assert len(traces) == 1 and f._cache_size() == 1


def test_two_static_classes_with_equal_fields_differ_and_compile_twice() -> None:
    @static_dataclass
    class Left:
        n: int = 1

    @static_dataclass
    class Right:
        n: int = 1

    assert Left() != Right() and hash(Left()) != hash(Right())
    traced, traces = count_traces(lambda x, config: x + config.n)
    f = jax.jit(traced, static_argnames="config")
    f(jnp.ones(2), config=Left())
    f(jnp.ones(2), config=Right())
    assert len(traces) == 2 and f._cache_size() == 2
