"""static_dataclass: frozen, hashed by value and class, validated with the offending field named."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxtypes as jt
from jaxtypes import Dynamic, static_dataclass


@static_dataclass
class Transport:
    name: str = "constant"
    fn: Any = None


@static_dataclass
class Solver:
    transport: Transport
    steps: int = 10
    tolerances: tuple[float, ...] = (1e-3,)


@dataclasses.dataclass
class MutableModel:
    coefficient: float = 1.0


@dataclasses.dataclass(frozen=True)
class FrozenModel:
    coefficient: float = 1.0
    inner: Any = None


@dataclasses.dataclass(frozen=True, eq=False, unsafe_hash=True)
class IdentityEqualModel:
    coefficient: float = 1.0


@dataclasses.dataclass(eq=False)
class MutableIdentityModel:  # eq=False: object's __eq__ and __hash__, frozen or not
    coefficient: float = 1.0


@dataclasses.dataclass(frozen=True, eq=False)
class OwnEqualityModel:
    coefficient: float = 1.0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnEqualityModel) and other.coefficient == self.coefficient

    def __hash__(self) -> int:
        return hash(self.coefficient)


class Model:
    def step(self, x: float) -> float:
        return x


class HashOnly:
    """Hashes by value but keeps object.__eq__: equal copies are never equal (jax issue 28418)."""

    def __init__(self) -> None:
        self.a = 1

    def __hash__(self) -> int:
        return hash(self.a)


def module_level_function(x: float) -> float:
    return x


@jax.jit
def jitted_at_module_level(x: jax.Array) -> jax.Array:
    return x


def make_local_function() -> Callable[[float], float]:
    def local(x: float) -> float:
        return x

    return local


def test_frozen_and_compared_by_value() -> None:
    a = Solver(Transport("bohm"), steps=5)
    b = Solver(Transport("bohm"), steps=5)
    assert a == b and hash(a) == hash(b)
    assert a != Solver(Transport("bohm"), steps=6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.steps = 6  # type: ignore[misc]


def test_hash_is_computed_once_per_instance() -> None:
    calls = []

    class CountingHash:
        def __hash__(self) -> int:
            calls.append(1)
            return 7

        def __eq__(self, other: object) -> bool:
            return isinstance(other, CountingHash)

    config = Transport(fn=CountingHash())
    calls.clear()
    for _ in range(100):
        hash(Solver(config))
    solver = Solver(config)
    for _ in range(100):
        hash(solver)
    assert calls == []


def test_frozen_false_is_refused_at_class_creation() -> None:
    with pytest.raises(jt.StaticClassError, match=r"Config is declared static_dataclass\(frozen=False\)") as info:

        @static_dataclass(frozen=False)
        class Config:
            n: int = 1

    assert info.value.code == "static-not-frozen"
    assert "test_static_dataclass.py:" in str(info.value)


def test_inheriting_from_a_mutable_dataclass_is_refused() -> None:
    with pytest.raises(jt.StaticClassError, match="inherits from MutableModel") as info:

        @static_dataclass
        class Config(MutableModel):
            n: int = 1

    assert info.value.code == "static-not-frozen"


def test_an_undecorated_subclass_is_refused_when_instantiated() -> None:
    class Extended(Transport):
        extra: int = 0

    with pytest.raises(
        jt.StaticClassError,
        match=r"^Extended subclasses the static_dataclass Transport without being decorated itself \[static-subclass\]\n",
    ) as info:
        Extended()
    assert info.value.code == "static-subclass"


def test_a_decorated_subclass_is_a_static_class_of_its_own() -> None:
    @static_dataclass
    class Extended(Transport):
        extra: int = 0

    assert Extended(extra=1) == Extended(extra=1)
    assert Extended() != Transport()


@pytest.mark.parametrize("position", ["first", "middle", "last"])
def test_a_mutable_dataclass_is_caught_in_any_field(position: str) -> None:
    @static_dataclass
    class Three:
        first: Any = 0
        middle: Any = 0
        last: Any = 0

    with pytest.raises(jt.StaticValueError) as info:
        Three(**{position: MutableModel()})
    assert str(info.value).startswith(f"Three.{position} holds a MutableModel, a dataclass that is not frozen")
    assert info.value.code == "static-not-frozen"


@pytest.mark.parametrize(
    ("value", "code", "what"),
    [
        (Model().step, "static-bound-method", "holds the bound method Model.step (bound to a Model instance)"),
        (jnp.ones(3), "static-dynamic-child", "holds an array (ArrayImpl)"),
        (np.ones(3), "static-dynamic-child", "holds an array (ndarray)"),
        ([1, 2], "static-unhashable", "holds a list, which is unhashable"),
        ({"a": 1}, "static-unhashable", "holds a dict, which is unhashable"),
        ({1}, "static-unhashable", "holds a set, which is unhashable"),
        (lambda x: x, "static-fresh-callable", "holds a lambda"),
        (make_local_function(), "static-fresh-callable", "holds the local function make_local_function.<locals>.local"),
        (jax.jit(module_level_function), "static-fresh-callable", "holds a function made by jax.jit"),
        (Model(), "static-identity-hash", "holds a Model, which hashes by identity"),
        (
            HashOnly(),
            "static-identity-hash",
            "holds a HashOnly, which compares by identity (it defines __hash__ but not __eq__)",
        ),
        (MutableModel(), "static-not-frozen", "holds a MutableModel, a dataclass that is not frozen"),
        (
            IdentityEqualModel(),
            "static-identity-hash",
            "holds an IdentityEqualModel, a dataclass with eq=False that hashes by identity",
        ),
        (
            MutableIdentityModel(),
            "static-identity-hash",
            "holds a MutableIdentityModel, a dataclass with eq=False that hashes by identity",
        ),
    ],
)
def test_each_bad_value_gets_its_own_message(value: Any, code: str, what: str) -> None:
    with pytest.raises(jt.StaticValueError) as info:
        Transport(fn=value)
    assert info.value.code == code
    assert str(info.value).startswith(f"Transport.fn {what} [{code}]\n  why: ")
    assert "\n  fix: " in str(info.value)


def test_a_function_jitted_once_at_module_level_is_a_static_value() -> None:
    """It is what its module exports under its name: one object, as a module-level ``def`` is."""
    assert Transport(fn=jitted_at_module_level) == Transport(fn=jitted_at_module_level)


def test_specific_fixes_for_containers_and_bound_methods() -> None:
    with pytest.raises(jt.StaticValueError, match="\n  fix: use a tuple instead of a list"):
        Transport(fn=[1])
    with pytest.raises(jt.StaticValueError, match="\n  fix: store the function Model.step and pass the instance"):
        Transport(fn=Model().step)


def test_the_full_path_is_named_through_tuples_and_frozen_dataclasses() -> None:
    with pytest.raises(jt.StaticValueError, match=r"^Solver.tolerances\[1\] holds a list"):
        Solver(Transport(), tolerances=(1.0, [2.0]))  # type: ignore[arg-type]
    with pytest.raises(jt.StaticValueError, match=r"^Transport.fn.inner holds the bound method"):
        Transport(fn=FrozenModel(inner=Model().step))


def test_a_tracer_is_refused() -> None:
    @jax.jit
    def build(x: jax.Array) -> None:
        Transport(fn=x)

    with pytest.raises(jt.StaticValueError, match="Transport.fn holds a tracer") as info:
        build(jnp.ones(2))
    assert info.value.code == "static-dynamic-child"


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        2.5,
        1j,
        "s",
        b"b",
        jnp.float32,
        np.dtype("float32"),
        (1, ("a", None)),
        frozenset({1, 2}),
        FrozenModel(2.0),
        OwnEqualityModel(2.0),
        module_level_function,
        Model.step,
        jnp.sin,
        jax.nn.relu,
        np.sin,
        len,
        Model,
        dataclasses.FrozenInstanceError,
    ],
)
def test_accepted_values(value: Any) -> None:
    assert Transport(fn=value) == Transport(fn=value)


def test_hash_by_id_lets_a_vouched_field_through() -> None:
    @static_dataclass
    class WithHandle:
        handle: Any = jt.field(default=None, hash_by_id=True)

    model = Model()
    assert WithHandle(model) == WithHandle(model)
    assert WithHandle(model) != WithHandle(Model())


@pytest.mark.parametrize(
    ("annotation", "code"),
    [
        ("jax.Array", "static-dynamic-child"),
        ("list[int]", "static-unhashable"),
        ("MutableModel", "static-not-frozen"),
        ("Model", "static-identity-hash"),
        ("HashOnly", "static-identity-hash"),
        ("IdentityEqualModel", "static-identity-hash"),
        ("MutableIdentityModel", "static-identity-hash"),
        ("Optional[tuple[np.ndarray, ...]]", "static-dynamic-child"),
    ],
)
def test_field_types_no_static_value_can_have_are_refused_at_class_creation(annotation: str, code: str) -> None:
    namespace: dict[str, Any] = {}
    source = f"@static_dataclass\nclass Bad:\n    field: {annotation}\n"
    with pytest.raises(jt.StaticClassError, match=r"^Bad.field is typed ") as info:
        exec(source, {**globals(), "static_dataclass": static_dataclass}, namespace)
    assert info.value.code == code


def test_dynamic_marker_on_a_static_field_is_refused() -> None:
    with pytest.raises(jt.MarkerError, match=r"Bad.x is marked Dynamic\[...\] in a static_dataclass"):

        @static_dataclass
        class Bad:
            x: Dynamic[jax.Array]


def test_copy_deepcopy_pickle_and_replace_keep_equality_and_hash() -> None:
    solver = Solver(Transport("bohm", module_level_function), tolerances=(1.0, 2.0))
    for twin in (copy.copy(solver), copy.deepcopy(solver), pickle.loads(pickle.dumps(solver))):
        assert twin == solver and hash(twin) == hash(solver)
    replaced = dataclasses.replace(solver, steps=3)
    assert replaced.steps == 3 and replaced != solver
    assert dataclasses.replace(replaced, steps=10) == solver


def test_replace_revalidates() -> None:
    with pytest.raises(jt.StaticValueError, match="Transport.fn holds a list"):
        dataclasses.replace(Transport(), fn=[1])


def test_the_constructor_signature_is_the_dataclass_one() -> None:
    import inspect

    assert (
        str(inspect.signature(Solver))
        == "(transport: 'Transport', steps: 'int' = 10, tolerances: 'tuple[float, ...]' = (0.001,)) -> None"
    )


def test_every_field_takes_part_in_equality() -> None:
    @static_dataclass
    class Labelled:
        n: int = 1
        label: str = dataclasses.field(default="", compare=False)

    assert Labelled(1, "a") != Labelled(1, "b")
    assert Labelled(1, "b").label == "b"


def test_a_static_class_may_nest_itself() -> None:
    @static_dataclass
    class Node:
        value: int
        children: tuple[Node, ...] = ()

    tree = Node(1, (Node(2), Node(3, (Node(4),))))
    assert tree is Node(1, (Node(2), Node(3, (Node(4),))))


def test_a_misplaced_marker_says_where_the_class_is() -> None:
    with pytest.raises(jt.MarkerError, match=r"Bad.x has Static\[...\] nested inside") as info:

        @static_dataclass
        class Bad:
            x: Optional[jt.Static[int]]

    assert f"defined at: {__file__}:" in str(info.value)
