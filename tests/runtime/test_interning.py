"""Hash-consing: equal static values are one object, keys are type-strict, the table is weak."""

from __future__ import annotations

import copy
import dataclasses
import gc
import math
import pickle
import subprocess
import sys
import threading
import weakref
from typing import Any

import jax
import jax.numpy as jnp
import pytest

from jaxtypes import Static, field, pytree_dataclass, static_dataclass
from jaxtypes._classes.interning import InternTable, _Entry
from jaxtypes._classes.static_values import STATIC_CLASS_FLAG


@static_dataclass
class Leaf:
    value: Any = 0


@static_dataclass
class Branch:
    left: Leaf
    right: Leaf
    label: str = ""


@static_dataclass(intern=False)
class Uninterned:
    value: Any = 0


def build(value: Any = 1) -> Branch:
    return Branch(Leaf(value), Leaf((value, "x")), label="b")


def live_instances(cls: type) -> int:
    return len(getattr(cls, STATIC_CLASS_FLAG).table)


def test_equal_constructions_are_one_object() -> None:
    assert Leaf(1) is Leaf(1)
    assert build() is build()
    assert build().left is Leaf(1)


@pytest.mark.parametrize(
    ("a", "b"), [(1, 1.0), (1, True), (1.0, True), (0.0, -0.0), ((1,), (1.0,)), (frozenset({1}), frozenset({1.0}))]
)
def test_keys_are_type_strict(a: Any, b: Any) -> None:
    assert Leaf(a) is not Leaf(b)
    assert Leaf(a) != Leaf(b)
    assert type(Leaf(b).value) is type(b) and repr(Leaf(b).value) == repr(b)


def test_every_nan_is_one_value() -> None:
    nan = Leaf(float("nan"))
    assert nan is Leaf(float("nan")) and nan == nan
    assert math.isnan(nan.value)


def test_every_creation_path_returns_the_canonical_object() -> None:
    original = build()
    assert copy.copy(original) is original
    assert copy.deepcopy(original) is original
    assert pickle.loads(pickle.dumps(original)) is original
    assert dataclasses.replace(original, label="c") is build().__class__(original.left, original.right, "c")
    assert dataclasses.replace(dataclasses.replace(original, label="c"), label="b") is original


def test_unpickling_in_another_process_interns_there() -> None:
    payload = pickle.dumps(build())
    script = (
        "import pickle, sys; sys.path.insert(0, 'tests/runtime');"
        "import test_interning as t;"
        "a = pickle.loads(sys.stdin.buffer.read()); print(a is t.build(), a.left is t.Leaf(1))"
    )
    done = subprocess.run([sys.executable, "-c", script], input=payload, capture_output=True, check=True)
    assert done.stdout.split() == [b"True", b"True"]


def test_pytree_unflattening_keeps_canonical_static_fields() -> None:
    @pytree_dataclass
    class State:
        x: jax.Array
        config: Branch
        extra: Static[tuple[Leaf, ...]]

    state = State(jnp.ones(2), build(), (Leaf(3),))
    leaves, treedef = jax.tree_util.tree_flatten(state)
    rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
    assert rebuilt.config is build() and rebuilt.extra[0] is Leaf(3)


def test_unused_instances_are_freed() -> None:
    gc.collect()
    before = live_instances(Leaf)
    ref = weakref.ref(Leaf("temporary"))
    gc.collect()
    assert ref() is None
    assert live_instances(Leaf) == before


class Value:
    """A weakly referenceable object for the intern table."""


def test_a_late_removal_never_removes_the_live_object_that_replaced_a_freed_one() -> None:
    # A freed object's removal can run after another thread has stored an equal new object:
    # the removal must leave the new entry alone.
    table = InternTable()
    first = Value()
    table.intern("key", first)
    freed_entry = table._entries["key"]
    del first
    second = Value()
    assert table.intern("key", second) is second
    table._on_free(freed_entry)
    assert table.intern("key", Value()) is second


def test_an_entry_whose_object_was_freed_is_replaced_before_its_removal_runs() -> None:
    table = InternTable()
    table._entries["key"] = dead = _Entry(Value())  # freed at once; its removal has not run
    dead.key = "key"
    second = Value()
    assert table.intern("key", second) is second
    assert table.intern("key", Value()) is second


def test_concurrent_construction_yields_one_object() -> None:
    results: list[Branch] = []
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        results.extend(build(("threads", i % 2)) for i in range(200))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(r) for r in results}) == 2
    assert len({hash(r) for r in results}) == 2


def test_hash_by_id_values_keep_working() -> None:
    @static_dataclass
    class Handle:
        target: Any = field(default=None, hash_by_id=True)

    owner = object()
    assert Handle(owner) is Handle(owner)
    assert Handle(owner) is not Handle(object())


def test_opting_out_keeps_equal_distinct_objects() -> None:
    a, b = Uninterned(1), Uninterned(1)
    assert a is not b and a == b and hash(a) == hash(b)
    assert Uninterned(1) != Uninterned(1.0)
    assert copy.deepcopy(a) == a and pickle.loads(pickle.dumps(a)) == a


def test_twenty_rebuilt_configs_trace_once_and_then_hit_the_cache() -> None:
    traces = []

    def step(x: jax.Array, config: Branch) -> jax.Array:
        traces.append(config)
        return x * config.left.value

    jitted = jax.jit(step, static_argnames="config")
    x = jnp.ones(3)
    for _ in range(20):
        jitted(x, build(2.0))
    assert len(traces) == 1
    assert jitted._cache_size() == 1
