"""The plugin's static-class rules, one case per check, run through real mypy in process.

Each case is a module whose expected errors are marked ``# E: <code>`` on their line; a case
with no marks must check clean. All cases share one cache dir so jax is analysed once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxtypes import StaticValueError
from tests.plugin.mypy_runner import check_in_process, expected, plugin_words
from tests.source_modules import import_path

HEADER = """\
from __future__ import annotations
import dataclasses
import types
from typing import Annotated, Callable, Optional, Union
import jax
import numpy as np
import jaxtypes as jt
from jaxtypes import Dynamic, Static, field, pytree_dataclass, static_dataclass
from jaxtypes import Static as S


class Vehicle:
    def __init__(self, num_wheels: int) -> None:
        self.num_wheels = num_wheels

    def wheels(self) -> int:
        return self.num_wheels

    @classmethod
    def make(cls) -> int:
        return 0

    @staticmethod
    def helper() -> int:
        return 0


def module_function() -> int:
    return 0
"""

CASES = {
    "array_fields": """
@static_dataclass
class Config:
    a: jax.Array  # E: static-dynamic-child
    b: np.ndarray  # E: static-dynamic-child
    c: Annotated[jax.Array, "n"]  # E: static-dynamic-child
    d: tuple[jax.Array, ...]  # E: static-dynamic-child
    e: Optional[jax.Array]  # E: static-dynamic-child
    f: Union[int, np.ndarray]  # E: static-dynamic-child
    g: int
    h: tuple[int, str]
""",
    "pytree_child": """
@pytree_dataclass
class State:
    x: jax.Array

@static_dataclass
class Config:
    state: State  # E: static-dynamic-child
    states: tuple[State, ...]  # E: static-dynamic-child
""",
    "dynamic_marker_on_static_class": """
@static_dataclass
class Config:
    x: Dynamic[int]  # E: marker-misuse
""",
    "pytree_static_field": """
@pytree_dataclass
class State:
    x: jax.Array
    y: Dynamic[jax.Array]
    n: Static[int]
    bad: Static[jax.Array]  # E: static-dynamic-child
    vehicle: Static[Vehicle]  # E: static-identity-hash
    by_id: Static[Vehicle] = field(default=Vehicle(1), hash_by_id=True)
""",
    "not_frozen": """
@static_dataclass(frozen=False)  # E: static-not-frozen
class Config:
    x: int

@dataclasses.dataclass
class Mutable:
    x: int

@static_dataclass
class Child(Mutable):  # E: misc, static-not-frozen
    y: int
""",
    "unfrozen_or_identity_hashed_types": """
@dataclasses.dataclass
class Mutable:
    x: int

@dataclasses.dataclass(frozen=True)
class Frozen:
    x: int

@dataclasses.dataclass(frozen=True, eq=False)
class FrozenIdentity:
    x: int

@dataclasses.dataclass(eq=False)
class MutableIdentity:  # eq=False keeps object's __eq__ and __hash__: identity, frozen or not
    x: int

@dataclasses.dataclass(frozen=True, eq=False, unsafe_hash=True)
class FrozenValueHash:
    x: int

@dataclasses.dataclass(frozen=True, eq=False)
class FrozenOwnHash:
    x: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrozenOwnHash) and other.x == self.x

    def __hash__(self) -> int:
        return hash(self.x)

class Eq:
    def __eq__(self, other: object) -> bool:
        return True

class Hashed:  # hashes by value, but keeps object.__eq__: equal copies are never equal
    def __hash__(self) -> int:
        return 0

@static_dataclass
class Config:
    vehicle: Vehicle  # E: static-identity-hash
    mutable: Mutable  # E: static-not-frozen
    eq: Eq  # E: static-unhashable
    frozen: Frozen
    frozen_identity: FrozenIdentity  # E: static-identity-hash
    mutable_identity: MutableIdentity  # E: static-identity-hash
    frozen_value_hash: FrozenValueHash  # E: static-identity-hash
    frozen_own_hash: FrozenOwnHash
    hashed: Hashed  # E: static-identity-hash
    anything: object
""",
    "unhashable_containers": """
@static_dataclass
class Config:
    a: list[int]  # E: static-unhashable
    b: dict[str, int]  # E: static-unhashable
    c: set[int]  # E: static-unhashable
    d: frozenset[int]
""",
    "method_type_field": """
@static_dataclass
class Config:
    fn: types.MethodType  # E: static-bound-method
""",
    "bound_method_arguments": """
@static_dataclass
class Config:
    fn: Callable[[], int]

@pytree_dataclass
class State:
    x: jax.Array
    fn: Static[Callable[[], int]]
    data: Callable[[], int]

class Owner:
    def method(self) -> int:
        return 0

    def build(self) -> Config:
        return Config(self.method)  # E: static-bound-method

vehicle = Vehicle(2)
bad = Config(fn=vehicle.wheels)  # E: static-bound-method
worse = dataclasses.replace(bad, fn=vehicle.wheels)  # E: static-bound-method
state = State(jax.numpy.ones(2), vehicle.wheels, vehicle.wheels)  # E: static-bound-method
fine = [
    Config(fn=module_function),
    Config(fn=Vehicle.make),
    Config(fn=Vehicle.helper),
    dataclasses.replace(bad, fn=module_function),
]
""",
    "fresh_callable_arguments": """
@static_dataclass
class Config:
    fn: Callable[[int], int]

def module_level(x: int) -> int:
    return x

def build() -> list[Config]:
    def local(x: int) -> int:
        return x

    return [
        Config(lambda x: x),  # E: static-fresh-callable
        Config(fn=local),  # E: static-fresh-callable
        dataclasses.replace(Config(module_level), fn=lambda x: x + 1),  # E: static-fresh-callable
        Config(module_level),
    ]

class Factory:
    def make(self) -> Config:
        def local(x: int) -> int:
            return x

        return Config(local)  # E: static-fresh-callable
""",
    "bound_method_defaults": """
car = Vehicle(3)
typed_car: Vehicle = Vehicle(4)

@static_dataclass
class Config:
    fn: Callable[[], int] = Vehicle(2).wheels  # E: static-bound-method
    other: Callable[[], int] = field(default=Vehicle(2).wheels)  # E: static-bound-method
    inferred: Callable[[], int] = car.wheels  # E: static-bound-method
    typed: Callable[[], int] = typed_car.wheels  # E: static-bound-method
    fine: Callable[[], int] = module_function
    class_method: Callable[[], int] = Vehicle.make
""",
    "undecorated_subclass": """
@static_dataclass
class Base:
    x: int

class Sub(Base):  # E: static-subclass
    pass

@static_dataclass
class Decorated(Base):
    y: int
""",
    "nested_and_double_markers": """
@pytree_dataclass
class State:
    a: Optional[Static[int]]  # E: marker-misuse
    b: Static[Dynamic[int]]  # E: marker-misuse
    c: tuple[Static[int], ...]  # E: marker-misuse
    d: Static[Optional[int]]
""",
    "marker_spellings": """
IntS = Static[int]
ArrS = S[jax.Array]
ArrS2 = ArrS

@pytree_dataclass
class State:
    a: S[jax.Array]  # E: static-dynamic-child
    b: jt.Static[jax.Array]  # E: static-dynamic-child
    c: ArrS2  # E: static-dynamic-child
    d: IntS
    e: jt.Dynamic[jax.Array]
""",
    "forward_reference": """
@static_dataclass
class Outer:
    inner: Inner  # E: static-dynamic-child
    later: Later

@static_dataclass
class Inner:
    x: jax.Array  # E: static-dynamic-child

@static_dataclass
class Later:
    x: int
""",
    "self_reference": """
@static_dataclass
class Node:
    children: tuple[Node, ...]

@pytree_dataclass
class Tree:
    parent: Static[Tree]  # E: static-dynamic-child
""",
    "recursive_aliases": """
from typing_extensions import TypeAlias

Tree: TypeAlias = Union[int, tuple["Tree", ...]]
Nested: TypeAlias = Optional[list["Nested"]]

@static_dataclass
class UsesAliases:
    tree: Tree
    nested: Nested  # E: static-unhashable
""",
    "inherited_stdlib_fields": """
@dataclasses.dataclass(frozen=True)
class Base:
    items: list[int]

@static_dataclass
class Config(Base):  # E: static-unhashable
    extra: int

@static_dataclass
class Sub(Config):
    more: int
""",
    "seed_fixes": """
@static_dataclass
class VehicleConfig:
    num_wheels: int

@pytree_dataclass
class Params:
    x_array: jax.Array
    a: Static[int]

@static_dataclass
class Transport:
    fn: Callable[[int], int]
    scale: float = 1.0
    name: Optional[str] = None
    shape: tuple[int, ...] = ()

@static_dataclass
class Solver:
    transport: Transport
    vehicle: VehicleConfig
    method: Callable[[], int] = Vehicle.make

@pytree_dataclass
class Simulation:
    params: Params
    solver: Solver

config = VehicleConfig(2)
changed = dataclasses.replace(config, num_wheels=4)
solver = Solver(Transport(abs), config)
""",
    "plain_code_is_ignored": """
@dataclasses.dataclass
class NotJaxtypes:
    items: list[int]
    array: jax.Array
    vehicle: Vehicle

made = NotJaxtypes([1], jax.numpy.ones(1), Vehicle(1))
method = dataclasses.replace(made, vehicle=Vehicle(2))
""",
    "type_ignore_silences": """
@static_dataclass
class Config:
    a: jax.Array  # type: ignore[static-dynamic-child]
    b: list[int]  # type: ignore[static-unhashable]
""",
}

CROSS_MODULE_DEPENDENCY = """
import jax
from jaxtypes import static_dataclass

@static_dataclass
class Transport:
    scale: float
    table: jax.Array
"""

CROSS_MODULE = """
from dep_cross_module import Transport

@static_dataclass
class Solver:
    transport: Transport  # E: static-dynamic-child
"""


def check(
    directory: Path, name: str, body: str, cache_dir: Path, *args: str
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(found, expected) ``(line, code)`` pairs for ``body`` checked as module ``name``."""
    source = HEADER + body
    path = directory / f"{name}.py"
    path.write_text(source)
    found = [(d.line, d.code) for d in check_in_process(path, cache_dir, *args) if d.file == path.name]
    return sorted(found), expected(source)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str, tmp_path: Path, cache_dir: Path) -> None:
    found, wanted = check(tmp_path, name, CASES[name], cache_dir)
    assert found == wanted


def test_nested_static_class_from_another_module(tmp_path: Path, cache_dir: Path) -> None:
    (tmp_path / "dep_cross_module.py").write_text(CROSS_MODULE_DEPENDENCY)
    found, wanted = check(tmp_path, "cross_module", CROSS_MODULE, cache_dir)
    assert found == wanted


def test_messages_name_field_reason_and_fix(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "messages.py"
    path.write_text(HEADER + CASES["array_fields"])
    first = check_in_process(path, cache_dir)[0]
    assert first.message.startswith("Config.a is typed jax.Array, an array type\nwhy: jit hashes static arguments")
    assert "\nfix: move it into a @jaxtypes.pytree_dataclass" in first.message


def test_fresh_callable_messages_are_the_runtimes(tmp_path: Path, cache_dir: Path) -> None:
    source = HEADER + CASES["fresh_callable_arguments"]
    path = tmp_path / "fresh.py"
    path.write_text(source)
    plugin = [d.message for d in check_in_process(path, cache_dir)]
    module = import_path(path, "fresh")
    runtime = []
    for build in (module.build, module.Factory().make):
        with pytest.raises(StaticValueError) as raised:
            build()
        runtime.append(plugin_words(raised.value.message))
    assert runtime == [plugin[0], plugin[3]]
    assert plugin[1].startswith("Config.fn holds the local function build.<locals>.local\nwhy: ")
    assert plugin[2].startswith("Config.fn holds a lambda\nwhy: ")


def test_disable_error_code(tmp_path: Path, cache_dir: Path) -> None:
    found, _ = check(
        tmp_path,
        "disabled",
        CASES["unhashable_containers"],
        cache_dir,
        "--disable-error-code",
        "static-unhashable",
    )
    assert found == []
