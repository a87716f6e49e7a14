"""pytree_dataclass: Static fields are pytree metadata, everything else is traced data."""

from __future__ import annotations

import dataclasses
from typing import Optional

import jax
import jax.numpy as jnp
import pytest

import jaxtypes as jt
from jaxtypes import Dynamic, Static, pytree_dataclass, static_dataclass


@static_dataclass
class Settings:
    order: int = 2


@pytree_dataclass
class Params:
    x_array: jax.Array
    a: Static[int]
    settings: Settings = Settings()
    bias: Dynamic[float] = 0.0


def params(values: list[float], a: int = 2) -> Params:
    return Params(jnp.asarray(values), a)


def test_static_fields_are_metadata_and_the_rest_is_data() -> None:
    leaves, treedef = jax.tree_util.tree_flatten(params([1.0, 2.0]))
    assert len(leaves) == 2
    rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
    assert rebuilt.a == 2 and rebuilt.settings is Settings()
    assert jnp.array_equal(rebuilt.x_array, jnp.asarray([1.0, 2.0]))


def test_jit_recompiles_for_new_static_values_only() -> None:
    traces = []

    @jax.jit
    def total(p: Params) -> jax.Array:
        traces.append(p.a)
        return (p.x_array * p.a).sum() + p.bias

    assert total(params([1.0, 2.0])) == 6.0
    assert total(params([3.0, 4.0])) == 14.0
    assert len(traces) == 1
    assert total(params([1.0, 2.0], a=3)) == 9.0
    assert len(traces) == 2


def test_vmap_grad_and_tree_map() -> None:
    batched = Params(jnp.ones((4, 2)), 3, bias=jnp.zeros(4))  # type: ignore[arg-type]
    out = jax.vmap(lambda p: p.x_array.sum() * p.a + p.bias)(batched)
    assert out.shape == (4,) and float(out[0]) == 6.0
    grads = jax.grad(lambda p: (p.x_array**2).sum() * p.a)(params([1.0, 2.0]))
    assert jnp.array_equal(grads.x_array, jnp.asarray([4.0, 8.0])) and grads.a == 2
    doubled = jax.tree_util.tree_map(lambda leaf: leaf * 2, params([1.0, 2.0]))
    assert jnp.array_equal(doubled.x_array, jnp.asarray([2.0, 4.0])) and doubled.a == 2


def test_construction_inside_traced_code() -> None:
    @jax.jit
    def make(x: jax.Array) -> Params:
        return Params(x * 2, 5)

    made = make(jnp.ones(2))
    assert made.a == 5 and jnp.array_equal(made.x_array, jnp.full(2, 2.0))


def test_static_fields_are_validated_at_construction() -> None:
    with pytest.raises(jt.StaticValueError, match="Params.a holds a list") as info:
        Params(jnp.ones(2), [1])  # type: ignore[arg-type]
    assert info.value.code == "static-unhashable"
    with pytest.raises(jt.StaticValueError, match="Params.a holds an array"):
        Params(jnp.ones(2), jnp.ones(2))  # type: ignore[arg-type]


def test_an_array_typed_static_field_is_refused_at_class_creation() -> None:
    with pytest.raises(jt.StaticClassError, match=r"Bad.mask is typed jax.Array, an array type") as info:

        @pytree_dataclass
        class Bad:
            mask: Static[jax.Array]

    assert info.value.code == "static-dynamic-child"


def test_marking_a_field_both_ways_is_refused() -> None:
    with pytest.raises(jt.MarkerError, match=r"Bad.x is annotated both Static\[...\] and Dynamic\[...\]"):

        @pytree_dataclass
        class Bad:
            x: Static[Dynamic[int]]


def test_frozen_and_changed_with_replace() -> None:
    p = params([1.0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.a = 3  # type: ignore[misc]
    assert dataclasses.replace(p, a=3).a == 3


def test_a_static_field_holding_its_own_pytree_class_is_refused() -> None:
    with pytest.raises(jt.StaticClassError, match=r"Tree.parent is typed Tree, a pytree_dataclass") as info:

        @pytree_dataclass
        class Tree:
            leaf: jax.Array
            parent: Static[Tree]

    assert info.value.code == "static-dynamic-child"


def test_a_quoted_name_inside_an_annotation_is_resolved() -> None:
    with pytest.raises(jt.StaticClassError, match=r"Tree.parent is typed Tree, a pytree_dataclass"):

        @pytree_dataclass
        class Tree:
            leaf: jax.Array
            parent: Static[Optional["Tree"]]
