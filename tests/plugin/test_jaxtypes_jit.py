"""The plugin's checks on ``jaxtypes.jit``, through real mypy, against the runtime's own errors.

``CASES`` are modules marked ``# E: <code>`` (a case without marks must check clean).
``DEFINITIONS`` each hold one problem the runtime refuses when the module is imported: mypy must
report it at the marked line with the runtime's message, word for word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxtypes import JaxtypesError
from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import check_in_process, expected, plugin_words
from tests.plugin.test_plain_jax import HEADER as PLAIN_JAX_HEADER
from tests.source_modules import import_path

HEADER = (
    PLAIN_JAX_HEADER
    + """
import numpy as np

import jaxtypes


@static_dataclass
class Settings:
    n: int


@pytree_dataclass
class Tree:
    x: jax.Array
"""
)

CASES = {
    "static_parameters": """
@jaxtypes.jit
def a(
    x: jax.Array,
    v: Static[Vehicle],  # E: static-identity-hash
    items: Static[list[int]],  # E: static-unhashable
    m: Static[Mutable],  # E: static-not-frozen
    arr: Static[jax.Array],  # E: static-dynamic-child
    tree: Static[Tree],  # E: static-dynamic-child
    *rest: Static[int],  # E: marker-misuse
) -> jax.Array:
    return x


@jt.jit(device="cpu")
def b(x: jax.Array, v: Static[Vehicle]) -> jax.Array:  # E: static-identity-hash
    return x


@jaxtypes.jit
def fine(
    x: jax.Array, n: Static[int], f: Static[Frozen], s: Settings, t: Static[tuple[int, ...]], o: Static[object]
) -> jax.Array:
    return x


def c(x: jax.Array, v: Static[Vehicle]) -> jax.Array:
    return x


c_jitted = jaxtypes.jit(c)  # E: static-identity-hash
""",
    "traced_parameters": """
from typing_extensions import dataclass_transform


@dataclass_transform()
def library_dataclass(cls: type) -> type:
    return cls


@library_dataclass
class LibraryNode:
    x: jax.Array


@jaxtypes.jit
def a(
    x: jax.Array,
    v: Vehicle,  # E: jit-unsupported-argument
    s: str,  # E: jit-unsupported-argument
    d: Dynamic[Settings],  # E: jit-unsupported-argument
    b: bytes,  # E: jit-unsupported-argument
    frozen: Frozen,  # E: jit-unsupported-argument
    text: np.str_,  # E: jit-unsupported-argument
) -> jax.Array:
    return x


@jaxtypes.jit
def fine(
    x: jax.Array,
    n: int,
    f: float,
    t: Tree,
    o: Optional[jax.Array],
    pair: tuple[jax.Array, jax.Array],
    d: dict[str, jax.Array],
    anything: Any,
    untyped,
    settings: Settings,
    fn: Callable[[int], int],
    node: LibraryNode,
    partial_fn: jax.tree_util.Partial,
    single: np.float32,
) -> jax.Array:
    return x
""",
    "methods": """
class Plain:
    @jaxtypes.jit  # E: jit-method-self
    def a(self, x: jax.Array) -> jax.Array:
        return x

    @staticmethod
    @jaxtypes.jit
    def b(x: jax.Array) -> jax.Array:
        return x


@static_dataclass
class Config:
    n: int

    @jaxtypes.jit
    def a(self, x: jax.Array) -> jax.Array:
        return x


@pytree_dataclass
class State:
    x: jax.Array

    @jaxtypes.jit
    def a(self, y: jax.Array) -> jax.Array:
        return y
""",
    "bound_method": """
v = Vehicle(2)
wheels = jaxtypes.jit(v.wheels)  # E: jit-bound-method
unbound = jaxtypes.jit(Vehicle.wheels)
settings_method = jaxtypes.jit(Settings(1).__hash__)
""",
    "call_site": """
@jaxtypes.jit
def f(x: jax.Array, n: Static[object], *, key: Static[Any] = None) -> jax.Array:
    return x


@jaxtypes.jit(static_argnums=1)
def g(x: jax.Array, n) -> jax.Array:
    return x


@static_dataclass
class Config:
    n: int

    @jaxtypes.jit
    def a(self, x: jax.Array, setting: Static[object]) -> jax.Array:
        return x


x = jax.numpy.ones(2)
v = Vehicle(2)
f(x, v)  # E: static-identity-hash
f(x, n=Mutable(1))  # E: static-not-frozen
f(x, v.wheels)  # E: static-bound-method
f(x, 1, key=v)  # E: static-identity-hash
f(x, Frozen(1), key=Vehicle.wheels)
f(v, 1)  # E: arg-type
g(x, v)  # E: static-identity-hash
g(x, 1)
config = Config(1)
config.a(x, v)  # E: static-identity-hash
config.a(x, Settings(1))
Config.a(config, x, v.wheels)  # E: static-bound-method
Config.a(config, x, 2)
""",
}

DEFINITION = """
@jaxtypes.jit
def f(x: jax.Array, {parameter}) -> jax.Array:  # E: {code}
    return x
"""

EQ_WITHOUT_HASH = """
class Keyed:
    def __eq__(self, other: object) -> bool:
        return True
"""

NESTED = """
class Outer:
    class Plain:
        pass
"""

DEFINITIONS = {
    **{
        name: DEFINITION.format(parameter=parameter, code=code)
        for name, (parameter, code) in {
            "identity_hash": ("v: Static[Vehicle]", "static-identity-hash"),
            "unhashable": ("items: Static[list[int]]", "static-unhashable"),
            "not_frozen": ("m: Static[Mutable]", "static-not-frozen"),
            "array": ("y: Static[jax.Array]", "static-dynamic-child"),
            "pytree": ("t: Static[Tree]", "static-dynamic-child"),
            "static_star_args": ("*rest: Static[int]", "marker-misuse"),
            "plain_class": ("v: Vehicle", "jit-unsupported-argument"),
            "string": ("s: str", "jit-unsupported-argument"),
            "dynamic_static_class": ("s: Dynamic[Settings]", "jit-unsupported-argument"),
        }.items()
    },
    "call_form": """
def f(x: jax.Array, v: Static[Vehicle]) -> jax.Array:
    return x


g = jaxtypes.jit(f)  # E: static-identity-hash
""",
    "method_self": """
class Plain:
    @jaxtypes.jit  # E: jit-method-self
    def a(self, x: jax.Array) -> jax.Array:
        return x


Plain.a
""",
    "bound_method": """
g = jaxtypes.jit(Vehicle(2).wheels)  # E: jit-bound-method
""",
    "bound_method_parameter": """
@static_dataclass
class Scaler:
    k: int

    def scale(self, x: jax.Array, label: str) -> jax.Array:
        return x


g = jaxtypes.jit(Scaler(2).scale)  # E: jit-unsupported-argument
""",
    "eq_without_hash_parameter": EQ_WITHOUT_HASH
    + DEFINITION.format(parameter="k: Static[Keyed]", code="static-unhashable"),
    "eq_without_hash_field": EQ_WITHOUT_HASH
    + """
@static_dataclass
class Holder:
    k: Keyed  # E: static-unhashable
""",
    "nested_class_parameter": NESTED
    + DEFINITION.format(parameter="p: Static[Outer.Plain]", code="static-identity-hash"),
    "nested_class_field": NESTED
    + """
@static_dataclass
class Holder:
    p: Outer.Plain  # E: static-identity-hash
""",
}

FROM_IMPORT = """from jaxtypes import Static, jit


class Opaque:
    pass


@jit
def f(n: Static[Opaque]) -> int:  # E: static-identity-hash
    return 0


f(Opaque())  # E: static-identity-hash
"""


def found_and_expected(
    path: Path, source: str, cache_dir: Path, *args: str
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The ``(line, code)`` pairs mypy reports on ``source`` written at ``path``, and those marked."""
    path.write_text(source)
    return [(d.line, d.code) for d in check_in_process(path, cache_dir, *args)], expected(source)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name: str, tmp_path: Path, cache_dir: Path) -> None:
    found, wanted = found_and_expected(tmp_path / f"{name}.py", HEADER + CASES[name], cache_dir)
    assert found == wanted


def test_parameter_lines_with_the_legacy_parser(tmp_path: Path, cache_dir: Path) -> None:
    source = HEADER + CASES["static_parameters"]
    found, wanted = found_and_expected(tmp_path / "legacy.py", source, cache_dir, "--no-native-parser")
    assert found == wanted


def test_from_import(tmp_path: Path, cache_dir: Path) -> None:
    found, wanted = found_and_expected(tmp_path / "from_import.py", FROM_IMPORT, cache_dir)
    assert found == wanted


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_definition_matches_runtime(name: str, tmp_path: Path, cache_dir: Path) -> None:
    source = HEADER + DEFINITIONS[name]
    path = tmp_path / f"jit_{name}.py"
    path.write_text(source)
    found = [d for d in check_in_process(path, cache_dir) if d.code in RULES_BY_CODE]
    assert [(d.line, d.code) for d in found] == expected(source)
    error = runtime_error(path)
    assert error.code == found[0].code
    assert plugin_words(error.message) == found[0].message


def runtime_error(path: Path) -> JaxtypesError:
    """The jaxtypes error raised by importing ``path`` (under the module name mypy gives it)."""
    with pytest.raises(Exception) as raised:
        import_path(path)
    error: BaseException | None = raised.value
    while error is not None and not isinstance(error, JaxtypesError):
        error = error.__cause__  # Python 3.11 wraps errors raised by __set_name__
    assert isinstance(error, JaxtypesError), raised.value
    return error
