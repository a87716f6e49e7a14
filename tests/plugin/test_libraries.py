"""Static fields declared with other libraries' markers: flax, equinox, jax's own dataclass
registration and jax_dataclasses, one module of correct code and one of each mistake per library.

Each case is checked in process with the real libraries installed (``# E: <code>`` marks the
expected findings); ``test_messages_name_the_marker_and_the_fix`` reads the words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxtypes._vocabulary.libraries import (
    EQUINOX,
    FLAX_STRUCT,
    JAX_DATACLASS,
    JAX_DATACLASSES,
    JAX_STATIC_CLASS,
)
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.rules import IDENTITY_HASH_FIX, RULES_BY_CODE, STATIC_DYNAMIC_CHILD, STATIC_IDENTITY_HASH
from tests.plugin.mypy_runner import check_in_process, expected, plugin_words, run_dmypy, run_mypy, write_config

HEADER = """\
import dataclasses
from typing import Any, Callable, List, Optional

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc
import optax
from flax import struct


class Vehicle:
    def __init__(self, n: int) -> None:
        self.n = n

    def wheels(self) -> int:
        return self.n


class Counter:
    def __init__(self) -> None:
        self.n = 0

    def step(self) -> None:
        self.n += 1


def tick(counter: Counter) -> None:  # any counter, one jit may have seen
    counter.step()


@dataclasses.dataclass
class Mutable:
    n: int


class Dense(nn.Module):
    features: int

    def __call__(self, x: jax.Array) -> jax.Array:
        return x


def double(x: int) -> int:
    return 2 * x
"""

CASES = {
    "flax_correct": """
@struct.dataclass
class TrainState:
    step: int
    params: Any
    apply_fn: Callable = struct.field(pytree_node=False)
    tx: optax.GradientTransformation = struct.field(pytree_node=False)
    names: tuple[str, ...] = struct.field(pytree_node=False, default=())


class Statistics(struct.PyTreeNode):
    mean: jax.Array
    mode: int = struct.field(pytree_node=False, default=0)


class Bounds(struct.PyTreeNode):  # frozen, as flax makes every struct class
    shape: tuple[int, ...] = struct.field(pytree_node=False)


@struct.dataclass
class Config:
    n: int


class World(struct.PyTreeNode):
    bounds: Bounds = struct.field(pytree_node=False)
    config: Config = struct.field(pytree_node=False)


model = Dense(3)
state = TrainState(0, {}, model.apply, optax.adam(1e-3))
other = TrainState(0, {}, apply_fn=double, tx=optax.sgd(0.1))
configured = jax.jit(lambda config, x: x, static_argnums=0)
configured(Config(1), 1.0)
configured(Bounds((2,)), 1.0)
""",
    "flax_mistakes": """
@struct.dataclass
class Foo:
    a: jax.Array
    b: list = struct.field(pytree_node=False)  # E: static-unhashable
    c: jax.Array = struct.field(pytree_node=False)  # E: static-dynamic-child
    fn: Callable = struct.field(pytree_node=False, default=double)


@jax.jit
def first(foo: Foo) -> jax.Array:
    return foo.a


class System(struct.PyTreeNode):
    link_names: List[str] = struct.field(pytree_node=False)  # compared, never changed in place: right (opt-in)
    vehicle: Vehicle = struct.field(pytree_node=False)  # built once, never changed: right (opt-in)
    counter: Counter = struct.field(pytree_node=False)  # E: static-identity-hash
    mutable: Optional[Mutable] = struct.field(pytree_node=False)  # compared, never changed: right (opt-in)


@struct.dataclass(frozen=False)
class Open:
    n: int


loosely = jax.jit(lambda config, x: x, static_argnums=0)
loosely(Open(1), 1.0)  # E: static-not-frozen


foo = Foo(jnp.ones(1), [1], jnp.ones(1), fn=lambda x: x)  # made once: right (opt-in)
foos = [Foo(jnp.ones(1), [1], jnp.ones(1), fn=lambda x: x) for _ in range(2)]  # E: static-fresh-callable
bar = Foo(jnp.ones(1), [1], jnp.ones(1), fn=Vehicle(2).wheels)  # its object never changes: right
baz = Foo(jnp.ones(1), [1], jnp.ones(1), fn=Counter().step)  # E: static-bound-method
foo.b.append(2)
""",
    "equinox_correct": """
class Linear(eqx.Module):
    weight: jax.Array
    bias: Optional[jax.Array]
    in_features: int = eqx.field(static=True)
    use_bias: bool = eqx.field(static=True)
    activation: Callable = eqx.field(static=True)
    padding: tuple[int, ...] = eqx.field(static=True)

    def __init__(self, in_features: int) -> None:
        self.weight = jnp.ones(in_features)
        self.bias = None
        self.in_features = in_features
        self.use_bias = False
        self.activation = jax.nn.relu
        self.padding = (0,)
""",
    "equinox_mistakes": """
class Layer(eqx.Module):
    w: jax.Array
    arr: jax.Array = eqx.field(static=True)  # E: static-dynamic-child
    old: Optional[jax.Array] = eqx.static_field()  # E: static-dynamic-child
    table: dict = eqx.field(static=True)  # compared, never changed in place: right (opt-in)
    log: list = eqx.field(static=True)  # E: static-unhashable

    def record(self, x: int) -> None:
        self.log.append(x)


class Deeper(Layer):
    vehicle: Vehicle = eqx.field(static=True)  # built once, never changed: right (opt-in)
    counter: Counter = eqx.field(static=True)  # E: static-identity-hash


@eqx.filter_jit
def forward(layer: Layer) -> jax.Array:
    return layer.w
""",
    "jax_correct": """
@jax.tree_util.register_dataclass
@dataclasses.dataclass
class MyOp:
    x: jax.Array
    y: jax.Array
    op: str = jax.tree.static(default="add")
    size: int = dataclasses.field(default=1, metadata={"static": True})


@dataclasses.dataclass
class Called:
    x: jax.Array
    name: str


jax.tree_util.register_dataclass(Called, data_fields=["x"], meta_fields=["name"])


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Settings:
    steps: int
    method: str


import functools


@functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["name"])
@dataclasses.dataclass(frozen=True)
class Documented:  # the form jax's documentation shows: a pytree, traced by jit
    x: jax.Array
    name: str


@jax.jit
def run(op: MyOp, documented: Documented) -> jax.Array:
    return documented.x


def made() -> Documented:
    return Documented(jnp.ones(1), "a")


run(MyOp(jnp.ones(1), jnp.ones(1)), made())
""",
    "jax_mistakes": """
@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Reg:
    x: jax.Array
    op: list = dataclasses.field(metadata={"static": True})  # E: static-unhashable
    called: list = dataclasses.field(metadata=dict(static=True))  # E: static-unhashable
    data: list = dataclasses.field(metadata=dict(static=False))
    mode: jax.Array = jax.tree.static()  # E: static-dynamic-child

    def grow(self) -> None:
        self.op.append(1)
        self.called[0] = 2


@dataclasses.dataclass
class Called:
    x: jax.Array
    meta: dict  # E: static-unhashable


jax.tree_util.register_dataclass(Called, data_fields=["x"], meta_fields=["meta"])
called = Called(jnp.ones(1), {})
called.meta["k"] = 1


from functools import partial


@partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["meta"])
@dataclasses.dataclass
class Decorated:
    x: jax.Array
    meta: jax.Array  # E: static-dynamic-child


jax.jit(lambda decorated: decorated.x)(Decorated(jnp.ones(1), jnp.ones(1)))


@dataclasses.dataclass
class Indexer:
    index: int


jax.tree_util.register_dataclass(Indexer, data_fields=[], meta_fields=["index"])


def indexer() -> Indexer:
    return Indexer(jnp.arange(3))  # E: static-dynamic-child


@jax.jit
def index(reg: Reg, indexer: Indexer) -> jax.Array:
    return reg.x


def scalar_indexer() -> Indexer:
    return Indexer(jnp.array(3))  # 0-d: compared as its number outside a trace (opt-in)


@jax.tree_util.register_static  # E: static-identity-hash
class Handle:
    pass


handles = [Handle() for _ in range(3)]


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Table:
    rows: list  # E: static-unhashable


table = Table([1])
table.rows.append(2)


class Late:
    pass


jax.tree_util.register_static(Late)  # built once: right (opt-in)
""",
    "jax_dataclasses_correct": """
@jdc.pytree_dataclass
class Params:
    x: jax.Array
    n: jdc.Static[int]
    names: jdc.Static[tuple[str, ...]]
""",
    "jax_dataclasses_mistakes": """
@jdc.pytree_dataclass
class Params:
    x: jax.Array
    s: jdc.Static[list]  # E: static-unhashable
    a: jdc.Static[jax.Array]  # E: static-dynamic-child


params = Params(jnp.ones(1), [1], jnp.ones(1))
params.s.append(2)
total = jax.jit(lambda p: p.x.sum())(params)
""",
}


def check(tmp_path: Path, cache_dir: Path, name: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    source = HEADER + CASES[name]
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    found = check_in_process(path, cache_dir)
    return [(d.line, d.code) for d in found if d.code in RULES_BY_CODE], expected(source)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str, tmp_path: Path, cache_dir: Path) -> None:
    found, wanted = check(tmp_path, cache_dir, name)
    assert found == wanted


MESSAGES = """
@struct.dataclass
class Foo:
    c: jax.Array = struct.field(pytree_node=False)


class Layer(eqx.Module):
    counter: Counter = eqx.field(static=True)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Reg:
    mode: jax.Array = jax.tree.static()


@jdc.pytree_dataclass
class Params:
    a: jdc.Static[jax.Array]


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Table:
    rows: jax.Array


@jax.jit
def use(foo: Foo, reg: Reg, params: Params, table: Table) -> jax.Array:
    return params.a
"""


def test_messages_name_the_marker_and_the_fix(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "messages.py"
    path.write_text(HEADER + MESSAGES)
    messages = [d.message for d in check_in_process(path, cache_dir) if d.code in RULES_BY_CODE]
    array = "is typed jax.Array, an array type"
    line = (HEADER + MESSAGES).splitlines().index(
        "def use(foo: Foo, reg: Reg, params: Params, table: Table) -> jax.Array:"
    ) + 1

    tick = HEADER.splitlines().index("    counter.step()") + 1

    def flattened(name: str) -> str:
        return f"{array}, and {phrases.handed_to_jit(name, 'use', line)}"

    assert messages == [
        plugin_words(message)
        for message in (
            STATIC_DYNAMIC_CHILD.message(f"Foo.c ({FLAX_STRUCT.marker})", flattened("Foo"), FLAX_STRUCT.make_dynamic),
            STATIC_IDENTITY_HASH.message(
                f"Layer.counter ({EQUINOX.marker})",
                f"is typed Counter, which hashes by identity, and counter.step() assigns self.n at line {tick}",
                IDENTITY_HASH_FIX,
            ),
            STATIC_DYNAMIC_CHILD.message(
                f"Reg.mode ({JAX_DATACLASS.marker})", flattened("Reg"), JAX_DATACLASS.make_dynamic
            ),
            STATIC_DYNAMIC_CHILD.message(
                f"Params.a ({JAX_DATACLASSES.marker})", flattened("Params"), JAX_DATACLASSES.make_dynamic
            ),
            STATIC_DYNAMIC_CHILD.message(
                f"Table.rows ({JAX_STATIC_CLASS.marker})", flattened("Table"), JAX_STATIC_CLASS.make_dynamic
            ),
        )
    ]


def test_libraries_that_are_not_installed_are_left_alone(tmp_path: Path, cache_dir: Path) -> None:
    for name in CASES:
        (tmp_path / f"{name}.py").write_text(HEADER + CASES[name])
    found = check_in_process(tmp_path, cache_dir, "--no-site-packages", extra_config="ignore_missing_imports = True\n")
    assert [d for d in found if d.code in RULES_BY_CODE] == []


def test_every_mode_gives_the_same_findings(tmp_path: Path) -> None:
    """All the cases as one project: cold, warm, ``-n 2``, the legacy parser and the daemon agree,
    and find what the marks say."""
    for name in CASES:
        (tmp_path / f"{name}.py").write_text(HEADER + CASES[name])
    write_config(tmp_path)
    files = [f"{name}.py" for name in sorted(CASES)]
    cold = run_mypy(tmp_path, *files)
    wanted = sorted((f"{name}.py", line, code) for name in CASES for line, code in expected(HEADER + CASES[name]))
    assert sorted((d.file, d.line, d.code) for d in cold if d.code in RULES_BY_CODE) == wanted
    assert run_mypy(tmp_path, *files) == cold
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", *files) == cold
    assert run_mypy(tmp_path, "--no-native-parser", "--no-incremental", *files) == cold
    status = tmp_path / "dmypy.json"
    try:
        assert run_dmypy(tmp_path, status, "run", "--", *files) == cold
    finally:
        run_dmypy(tmp_path, status, "stop")
