"""``jaxtypes.audit``: the static values in a pytree that break a rule, with their paths, for
flax, equinox, jax-registered, jax_dataclasses and jaxtypes classes in nested containers."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc
import numpy as np
import optax
import pytest
from flax import nnx, struct
from flax.training import train_state

import jaxtypes as jt
from jaxtypes._vocabulary.libraries import (
    EQUINOX,
    FLAX_STRUCT,
    JAX_DATACLASS,
    JAX_DATACLASSES,
    JAX_STATIC_CLASS,
    PYTREE_METADATA,
)
from jaxtypes._vocabulary.rules import STATIC_DYNAMIC_CHILD_STRICT, STATIC_UNHASHABLE_STRICT
from tests.param_ids import spelled


class Vehicle:
    def __init__(self) -> None:
        self.n = 1

    def wheels(self) -> int:
        return self.n


@dataclasses.dataclass
class Settings:
    steps: int


@struct.dataclass
class FlaxState:
    a: jax.Array
    meta: Any = struct.field(pytree_node=False)


class EqxLayer(eqx.Module):
    w: jax.Array
    meta: Any = eqx.field(static=True)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Registered:
    x: jax.Array
    meta: Any = dataclasses.field(metadata={"static": True})  # jax.tree.static() from jax 0.7


@dataclasses.dataclass
class Called:
    x: jax.Array
    meta: Any


jax.tree_util.register_dataclass(Called, data_fields=["x"], meta_fields=["meta"])


@jdc.pytree_dataclass
class Jdc:
    x: jax.Array
    meta: jdc.Static[Any]


@jt.pytree_dataclass
class Ours:
    x: jax.Array
    meta: jt.Static[Any] = None


@jax.tree_util.register_static
class StaticHandle:
    pass


@jax.tree_util.register_pytree_node_class
class HandWritten:
    """A node whose flatten puts an array in its aux data (jax issue 28659)."""

    def __init__(self, x: jax.Array, table: np.ndarray) -> None:
        self.x, self.table = x, table

    def tree_flatten(self) -> tuple[tuple[jax.Array], tuple[np.ndarray]]:
        return (self.x,), (self.table,)

    @classmethod
    def tree_unflatten(cls, aux: tuple[np.ndarray], children: tuple[jax.Array]) -> HandWritten:
        return cls(children[0], aux[0])


class Dense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        return nn.Dense(self.features)(x)


def double(x: int) -> int:
    return 2 * x


NODES: dict[str, Callable[[Any], Any]] = {
    "flax": lambda meta: FlaxState(jnp.ones(2), meta),
    "equinox": lambda meta: EqxLayer(jnp.ones(2), meta),
    "register_dataclass": lambda meta: Registered(jnp.ones(2), meta),
    "register_dataclass(Cls, meta_fields=...)": lambda meta: Called(jnp.ones(2), meta),
    "jax_dataclasses": lambda meta: Jdc(jnp.ones(2), meta),
}
MARKERS = {
    "flax": FLAX_STRUCT,
    "equinox": EQUINOX,
    "register_dataclass": JAX_DATACLASS,
    "register_dataclass(Cls, meta_fields=...)": JAX_DATACLASS,
    "jax_dataclasses": JAX_DATACLASSES,
}


@pytest.mark.parametrize("library", sorted(NODES))
@pytest.mark.parametrize("meta", [3, ("a", 1.5), "relu", double, None, Dense(3).apply, jax.nn.relu], ids=spelled)
def test_correct_static_values_pass(library: str, meta: Any) -> None:
    assert jt.audit({"layer": NODES[library](meta)}, "state") == []


STRICT = (
    "static-dynamic-child-strict",
    "static-unhashable-strict",
    "static-identity-hash-strict",
    "static-not-frozen-strict",
    "static-fresh-callable-strict",
)


@pytest.mark.filterwarnings("ignore:A JAX array is being set as static")  # equinox's own warning
@pytest.mark.parametrize("library", sorted(NODES))
@pytest.mark.parametrize(
    ("meta", "code", "what"),
    [
        (np.ones(2), "static-dynamic-child", "holds an array (ndarray)"),
        (Vehicle().wheels, "static-bound-method", "holds the bound method Vehicle.wheels"),
    ],
    ids=["array", "bound-method"],
)
def test_each_mistake_is_reported_at_its_path_with_the_library_marker(
    library: str, meta: Any, code: str, what: str
) -> None:
    """A shaped array in metadata, an equinox module's too, fails only where another instance
    with its own arrays meets jit after this one, which one look at a value cannot tell: its
    opt-in twin."""
    strict = code == "static-dynamic-child"
    [error] = jt.audit({"layer": NODES[library](meta)}, "state", select=STRICT if strict else ())
    assert error.code == (f"{code}-strict" if strict else code)
    where = f"state['layer'].meta ({MARKERS[library].marker})"
    assert str(error).startswith(f"{where} {what}")


@pytest.mark.filterwarnings("ignore:A JAX array is being set as static")  # equinox's own warning
@pytest.mark.parametrize("library", sorted(NODES))
@pytest.mark.parametrize(
    ("meta", "code", "what"),
    [
        ([1, 2], "static-unhashable-strict", "holds a list, which is unhashable"),
        (Vehicle(), "static-identity-hash-strict", "holds a Vehicle, which hashes by identity"),
        (lambda x: x, "static-fresh-callable-strict", "holds a lambda"),
        (Settings(1), "static-not-frozen-strict", "holds a Settings, a dataclass that is not frozen"),
        (jnp.array(3), "static-dynamic-child-strict", "holds an array (ArrayImpl)"),
    ],
    ids=["list", "identity", "lambda", "not-frozen", "0-d-array"],
)
def test_what_is_right_until_changed_or_built_again_is_opt_in(library: str, meta: Any, code: str, what: str) -> None:
    """jit compares metadata: a list, an identity-hashed object, a dataclass that is not frozen or a
    lambda there works as long as nobody changes it or builds it again, and a 0-d array as long as
    no jit traces the comparison, which one look at a value cannot tell."""
    tree = {"layer": NODES[library](meta)}
    assert jt.audit(tree, "state") == []
    [error] = jt.audit(tree, "state", select=STRICT)
    assert error.code == code
    assert str(error).startswith(f"state['layer'].meta ({MARKERS[library].marker}) {what}")


def test_the_fix_is_in_the_library_terms() -> None:
    [error] = jt.audit(FlaxState(jnp.ones(2), jnp.ones(3)), "state", select=STRICT)
    assert error.rule is STATIC_DYNAMIC_CHILD_STRICT
    assert f"\n  fix: {FLAX_STRUCT.make_dynamic}\n" in str(error)
    [error] = jt.audit(Registered(jnp.ones(2), {"a": 1}), "layer", select=STRICT)
    assert error.rule is STATIC_UNHASHABLE_STRICT
    assert "\n  fix: use a static_dataclass or a tuple of (key, value) pairs instead of a dict\n" in str(error)


def test_every_finding_in_a_nested_tree_in_tree_order() -> None:
    tree = {
        "a": [FlaxState(jnp.ones(2), [1]), (EqxLayer(jnp.ones(1), [3]), Registered(jnp.ones(1), {"k": 1}))],
        "b": {"deep": FlaxState(FlaxState(jnp.ones(1), np.ones(1)), "fine")},
    }
    found = [(error.where, error.code) for error in jt.audit(tree, "state", select=STRICT)]
    assert found == [
        (f"state['a'][0].meta ({FLAX_STRUCT.marker})", "static-unhashable-strict"),
        (f"state['a'][1][0].meta ({EQUINOX.marker})", "static-unhashable-strict"),
        (f"state['a'][1][1].meta ({JAX_DATACLASS.marker})", "static-unhashable-strict"),
        (f"state['b']['deep'].a.meta ({FLAX_STRUCT.marker})", "static-dynamic-child-strict"),
    ]
    assert jt.audit(tree, "state") == []


def test_a_flax_train_state_is_correct() -> None:
    model = Dense(3)
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-3))
    assert jt.audit(state, "state") == []


def test_a_class_registered_static_is_judged_as_a_whole() -> None:
    [error] = jt.audit({"handle": StaticHandle()}, "tree", select=STRICT)
    assert (error.where, error.code) == (f"tree['handle'] ({JAX_STATIC_CLASS.marker})", "static-identity-hash-strict")


def test_arrays_in_hand_written_aux_data_are_found() -> None:
    assert jt.audit(HandWritten(jnp.ones(2), np.ones(3)), "node") == []
    [error] = jt.audit(HandWritten(jnp.ones(2), np.ones(3)), "node", select=STRICT)
    assert (error.where, error.code) == (f"node ({PYTREE_METADATA.marker})", "static-dynamic-child-strict")
    assert str(error).startswith(
        f"node ({PYTREE_METADATA.marker}) holds an array (ndarray) at [0] [static-dynamic-child-strict]\n"
    )


def test_jaxtypes_classes_and_nnx_modules() -> None:
    assert jt.audit([Ours(jnp.ones(2), 3), Ours(jnp.ones(1))], "tree") == []

    class Model(nnx.Module):
        def __init__(self) -> None:
            self.w = nnx.Param(jnp.ones(2))
            self.names = ["a", "b"]  # NNX keeps it static by design, in its own aux data

    assert jt.audit(Model(), "model") == []


def test_leaves_and_plain_containers_have_nothing_static() -> None:
    assert jt.audit({"x": jnp.ones(2), "v": Vehicle(), "l": [1, [2]], "n": None}, "tree") == []
