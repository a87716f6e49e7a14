"""The plugin's checks on plain ``jax.jit`` (no jaxtypes), one case per check, through real mypy.

Cases are written like ``test_class_rules.py``'s (``# E: <code>`` marks, one shared cache dir),
on top of its header.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxtypes.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import check_in_process, expected
from tests.plugin.test_class_rules import HEADER as CLASS_RULES_HEADER

HEADER = CLASS_RULES_HEADER + """
from functools import partial
from typing import Any
from jax import jit, tree_util


class ByValue:
    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return True


@dataclasses.dataclass
class Mutable:
    n: int


@dataclasses.dataclass(frozen=True)
class Frozen:
    n: int
"""

CASES = {
    "method_self_decorator": """
class Plain:
    @jax.jit  # E: jit-method-self
    def a(self, y: int) -> int:
        return y

    @jit  # E: jit-method-self
    def b(self, y: int) -> int:
        return y

    def c(self, y: int) -> int:
        return y

    c_jitted = jax.jit(c)  # E: jit-method-self

    @staticmethod
    @jax.jit
    def d(y: int) -> int:
        return y
""",
    "method_self_pytrees": """
@tree_util.register_pytree_node_class
class Decorated:
    @jax.jit
    def a(self, y: int) -> int:
        return y


class Registered:
    @jax.jit
    def a(self, y: int) -> int:
        return y


tree_util.register_pytree_node(Registered, lambda r: ((), None), lambda aux, children: Registered())


@pytree_dataclass
class Tree:
    x: jax.Array

    @jax.jit
    def a(self, y: int) -> int:
        return y


@static_dataclass
class Settings:
    n: int

    @jax.jit  # E: jit-method-self
    def traced_self(self, y: int) -> int:
        return y

    @partial(jax.jit, static_argnums=0)
    def static_self(self, y: int) -> int:
        return y


class Owner:
    def run(self, tree: Decorated, registered: Registered, tree2: Tree, settings: Settings) -> None:
        jax.jit(tree.a)
        jax.jit(registered.a)
        jax.jit(tree2.a)
        jax.jit(settings.static_self)
        jax.jit(self.run)  # E: jit-bound-method
""",
    "static_self": """
class Plain:
    @partial(jit, static_argnums=0)  # E: static-identity-hash
    def a(self, y: int) -> int:
        return y

    @partial(jax.jit, static_argnames="self")  # E: static-identity-hash
    def b(self, y: int) -> int:
        return y


class Hashed(ByValue):
    @partial(jit, static_argnums=0)
    def a(self, y: int) -> int:
        return y
""",
    "static_parameters": """
@jax.jit(static_argnums=0)  # E: static-identity-hash
def a(v: Vehicle) -> int:
    return v.num_wheels


@partial(jax.jit, static_argnames=("m",))  # E: static-not-frozen
def b(x: int, m: Mutable) -> int:
    return x


def c(x: int, items: list[int]) -> int:
    return x


c_jitted = jax.jit(c, static_argnums=-1)  # E: static-unhashable


@jax.jit(static_argnums=(0, 1, 2, 3))
def fine(a: ByValue, b: Frozen, c: Any, d) -> int:
    return 0


@jax.jit
def not_static(v: Vehicle) -> int:
    return 0
""",
    "call_site": """
@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


@partial(jax.jit, static_argnames="x")
def g(x, y):
    return y


h = jax.jit(lambda x, y: y, static_argnums=0)
v = Vehicle(2)
f(v)  # E: static-identity-hash
f(ByValue())
f(Frozen(1))
f(v.wheels)  # E: static-bound-method
f(Vehicle.wheels)
g(v, 1)  # E: static-identity-hash
g(x=v, y=1)  # E: static-identity-hash
g(1, y=v)
h(v, 1)  # E: static-identity-hash
h([1], 1)  # E: static-unhashable
jax.jit(f)(3)
""",
    "bound_method": """
v = Vehicle(2)
wheels = jax.jit(v.wheels)  # E: jit-bound-method
unbound = jax.jit(Vehicle.wheels)
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str, tmp_path: Path, cache_dir: Path) -> None:
    source = HEADER + CASES[name]
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    found = [(d.line, d.code) for d in check_in_process(path, cache_dir) if d.code in RULES_BY_CODE]
    assert found == expected(source)
