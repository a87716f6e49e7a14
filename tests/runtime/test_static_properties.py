"""Property tests: static values built from equal parts are equal, hash equal and survive copies."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jaxtypes import static_dataclass


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
