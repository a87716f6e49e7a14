"""Property tests: static values built from equal parts are equal, hash equal and survive copies."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jaxtypes import static_dataclass
from jaxtypes._classes.static_values import static_key


@static_dataclass
class Node:
    value: Any
    children: tuple[Any, ...] = ()


@static_dataclass(intern=False)
class LooseNode:
    value: Any
    children: tuple[Any, ...] = ()


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.complex_numbers(allow_nan=False),
    st.text(max_size=5),
    st.binary(max_size=5),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.tuples(inner, inner), st.frozensets(scalars, max_size=3)),
    max_leaves=6,
)
# Values that Python's == and hash() merge or split where a static key must not.
confusable = st.sampled_from(
    [0, 1, -1, True, False, 0.0, -0.0, 1.0, -1.0, 0.5, float("nan"), -float("nan"), float("inf"), 0j, 1 + 0j]
    + ["", "1", b"1", None, (1,), (1.0,), (True,), frozenset({1}), frozenset({1.0})]
)
trees = st.recursive(
    st.builds(lambda v: ("node", v, ()), values),
    lambda inner: st.builds(lambda v, kids: ("node", v, tuple(kids)), values, st.lists(inner, max_size=3)),
    max_leaves=8,
)


def realise(cls: type, tree: tuple[Any, ...]) -> Any:
    _, value, kids = tree
    return cls(value, tuple(realise(cls, kid) for kid in kids))


@settings(max_examples=150, deadline=None)
@given(trees)
def test_equal_parts_make_equal_interned_values(tree: tuple[Any, ...]) -> None:
    a, b = realise(Node, tree), realise(Node, tree)
    assert a is b and a == b and hash(a) == hash(b)
    assert copy.deepcopy(a) is a and pickle.loads(pickle.dumps(a)) is a


@settings(max_examples=150, deadline=None)
@given(trees)
def test_equal_parts_make_equal_values_without_interning(tree: tuple[Any, ...]) -> None:
    a, b = realise(LooseNode, tree), realise(LooseNode, tree)
    assert a is not b and a == b and hash(a) == hash(b)
    for twin in (copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert twin == a and hash(twin) == hash(a)


@settings(max_examples=300, deadline=None)
@given(st.one_of(confusable, values), st.one_of(confusable, values))
def test_two_values_make_one_config_exactly_when_their_type_strict_keys_are_equal(a: Any, b: Any) -> None:
    same = static_key(a) == static_key(b)
    assert (Node(a) is Node(b)) is same
    assert (LooseNode(a) == LooseNode(b)) is same
