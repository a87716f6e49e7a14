"""Generated modules of jaxtypes classes, constructor calls and jitted functions, and their lines.

A generated example is a handful of *units*, each written to its own module ``unit<k>.py`` next
to one fixed module of helper classes (``COMMON``). A unit is a few elements in order: classes
(static, pytree, non-frozen static, stdlib dataclasses, undecorated subclasses) whose fields
nest each other, inherit and refer forward, optionally a holder class with a constructor call
passing a function, lambda or bound method, and ``jaxtypes.jit`` functions and methods.

Why units in separate modules: the runtime stops at the first error of a module, mypy reports
all of them. Splitting one example into several modules gives several independent runtime
verdicts for the price of one mypy run (all modules at once) and one import pass, and keeps each
unit small enough that what the runtime did not reach (after its first error) is little.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from hypothesis import strategies as st

COMMON_MODULE = "jaxtypes_dx_common"

COMMON = '''\
"""Helper classes the generated units use as field types and values."""
import abc
import dataclasses


class Plain:
    def __init__(self, n: int = 0) -> None:
        self.n = n


class ByValue:
    def __init__(self, n: int = 0) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByValue) and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)


class EqOnly:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, EqOnly)


class Shape(abc.ABC):
    def area(self) -> float:
        return 0.0


class Square(Shape):  # a concrete class of an abstract base: judged as itself, a plain class
    def area(self) -> float:
        return 1.0


@dataclasses.dataclass(frozen=True)
class Frozen:
    n: int


@dataclasses.dataclass(frozen=True, eq=False)
class FrozenById:
    n: int


@dataclasses.dataclass
class Mutable:
    n: int


class Helper:
    def run(self, x: int) -> int:
        return x

    @classmethod
    def make(cls, x: int) -> int:
        return x

    @staticmethod
    def twice(x: int) -> int:
        return 2 * x


def double(x: int) -> int:
    return 2 * x


helper = Helper()
'''

HEADER = f"""\
import dataclasses
from typing import Callable, Optional, Union
import jax
import jax.numpy as jnp
import numpy as np
import jaxtypes
from jaxtypes import Dynamic, Static, pytree_dataclass, static_dataclass
from {COMMON_MODULE} import ByValue, EqOnly, Frozen, FrozenById, Helper, Mutable, Plain, Shape, Square, double, helper
"""

# A type is a tuple: ("leaf", spelling), ("ref", class name) or (constructor, *argument types).
Type = tuple[Union[str, "Type"], ...]

LEAVES = (
    "int",
    "float",
    "str",
    "bool",
    "bytes",
    "None",
    "object",
    "Callable[..., int]",
    "jax.Array",
    "np.ndarray",
    "Plain",
    "ByValue",
    "EqOnly",
    "Shape",
    "Square",
    "Frozen",
    "FrozenById",
    "Mutable",
)
CONSTRUCTORS = {
    "tuple": "tuple[{}, ...]",
    "pair": "tuple[{}, {}]",
    "optional": "Optional[{}]",
    "union": "Union[{}, {}]",
    "list": "list[{}]",
    "dict": "dict[str, {}]",
    "frozenset": "frozenset[{}]",
    "static": "Static[{}]",
    "dynamic": "Dynamic[{}]",
}
CALL_VALUES = (
    "double",
    "lambda x: x",
    "helper.run",
    "Helper().run",
    "Helper.run",
    "Helper.make",
    "Helper.twice",
    "jnp.sin",
)


def render(typ: Type, defined: frozenset[str]) -> str:
    """The annotation for ``typ``; a class not in ``defined`` yet is a quoted forward reference."""
    head, *args = typ
    if head == "leaf":
        return str(args[0])
    if head == "ref":
        return args[0] if args[0] in defined else f'"{args[0]}"'  # type: ignore[return-value]
    return CONSTRUCTORS[head].format(*(render(arg, defined) for arg in args))  # type: ignore[arg-type]


def references(typ: Type) -> set[str]:
    """The generated classes a type names."""
    head, *args = typ
    if head == "ref":
        return {str(args[0])}
    if head == "leaf":
        return set()
    return set().union(*(references(arg) for arg in args))  # type: ignore[arg-type]


@dataclass
class ClassSpec:
    """A class: ``kind`` is static, unfrozen (static_dataclass(frozen=False)), pytree,
    stdlib_frozen, stdlib_mutable or subclass (undecorated subclass of ``base``)."""

    name: str
    kind: str
    base: str | None
    fields: list[tuple[str, Type]]


@dataclass
class CallSpec:
    """``Holder(fn=value)`` (or positional, or ``dataclasses.replace``) on a one-field holder class."""

    target: str
    value: str
    style: str


@dataclass
class JitSpec:
    """``@jaxtypes.jit`` on a module-level function (``params``) or, with ``method``, on a method
    of a plain class named ``name`` that writes its own ``__init__``."""

    name: str
    params: list[tuple[str, Type]]
    method: bool = False


Element = Union[ClassSpec, CallSpec, JitSpec]


@dataclass
class Lines:
    """Where an element was written: its first and last line, and each field's or parameter's line."""

    first: int
    last: int
    fields: dict[str, int] = field(default_factory=dict)


@dataclass
class Unit:
    """One generated module: its elements in order, with or without ``from __future__ import annotations``."""

    future: bool
    elements: list[Element]

    def source(self) -> tuple[str, list[Lines]]:
        """The module's text and where each element is in it."""
        out = (["from __future__ import annotations"] if self.future else []) + HEADER.splitlines()
        lines: list[Lines] = []
        defined: set[str] = set()
        for element in self.elements:
            first = len(out) + 2
            out.append("")
            where = Lines(first, first)
            if isinstance(element, ClassSpec):
                _class_lines(element, frozenset(defined), out, where)
                defined.add(element.name)
            elif isinstance(element, CallSpec):
                out.append(_call_line(element))
            else:
                _jit_lines(element, frozenset(defined), out, where)
            where.last = len(out)
            lines.append(where)
        return "\n".join(out) + "\n", lines

    def classes(self) -> dict[str, ClassSpec]:
        return {e.name: e for e in self.elements if isinstance(e, ClassSpec)}


_DECORATORS = {
    "static": "@static_dataclass",
    "unfrozen": "@static_dataclass(frozen=False)",
    "pytree": "@pytree_dataclass",
    "stdlib_frozen": "@dataclasses.dataclass(frozen=True)",
    "stdlib_mutable": "@dataclasses.dataclass",
}


def _class_lines(spec: ClassSpec, defined: frozenset[str], out: list[str], where: Lines) -> None:
    if spec.kind in _DECORATORS:
        out.append(_DECORATORS[spec.kind])
    out.append(f"class {spec.name}({spec.base}):" if spec.base else f"class {spec.name}:")
    for name, typ in spec.fields:
        out.append(f"    {name}: {render(typ, defined)}")
        where.fields[name] = len(out)
    if not spec.fields:
        out.append("    pass")


def _call_line(spec: CallSpec) -> str:
    if spec.style == "positional":
        return f"made = {spec.target}({spec.value})"
    if spec.style == "replace":
        return f"made = dataclasses.replace({spec.target}(double), fn={spec.value})"
    return f"made = {spec.target}(fn={spec.value})"


def _jit_lines(spec: JitSpec, defined: frozenset[str], out: list[str], where: Lines) -> None:
    if spec.method:
        out.extend(
            [
                f"class {spec.name}:",
                "    def __init__(self) -> None:",
                "        self.n = 0",
                "",
                "    @jaxtypes.jit",
                "    def step(self, x: jax.Array) -> jax.Array:",
                "        return x",
            ]
        )
        return
    params = ", ".join(f"{name}: {render(typ, defined)}" for name, typ in spec.params)
    out.extend(["@jaxtypes.jit", f"def {spec.name}(x: jax.Array, {params}) -> jax.Array:", "    return x"])
    where.fields.update({name: len(out) - 1 for name, _ in spec.params})


def types(classes: list[str]) -> st.SearchStrategy[Type]:
    """Field types: leaves and references to ``classes``, nested in containers and markers."""
    base = st.one_of(
        st.sampled_from(LEAVES).map(lambda s: ("leaf", s)),
        *([st.sampled_from(classes).map(lambda name: ("ref", name))] if classes else []),
    )
    one = st.sampled_from(["tuple", "optional", "list", "dict", "frozenset"] * 2 + ["static", "dynamic"])
    two = st.sampled_from(["pair", "union"])

    def extend(inner: st.SearchStrategy[Type]) -> st.SearchStrategy[Type]:
        return st.one_of(
            st.tuples(one, inner),
            st.tuples(two, inner, inner),
        )

    return st.recursive(base, extend, max_leaves=3)  # type: ignore[arg-type]


def _field_type(classes: list[str]) -> st.SearchStrategy[Type]:
    """A field's type: mostly unmarked or with one outermost marker (nested ones come from ``types``)."""
    inner = types(classes)
    return st.one_of(inner, inner.map(lambda t: ("static", t)), inner.map(lambda t: ("dynamic", t)))


@st.composite
def units(draw: st.DrawFn, index: int) -> Unit:
    """One unit: 1-2 classes, maybe a holder class and its call, maybe jitted functions."""
    count = draw(st.integers(1, 2))
    names = [f"C{index}_{i}" for i in range(count)]
    elements: list[Element] = []
    for name in names:
        earlier = {c.name: c.kind for c in elements if isinstance(c, ClassSpec)}
        kind = draw(
            st.sampled_from(
                ["static"] * 3 + ["pytree"] * 3 + ["unfrozen", "stdlib_frozen", "stdlib_mutable", "subclass"]
            )
        )
        statics = [n for n, k in earlier.items() if k == "static"]
        if kind == "subclass" and not statics:
            kind = "static"
        base = draw(_bases(kind, earlier))
        fields = [(f"{name.lower()}_{j}", draw(_field_type(names))) for j in range(draw(st.integers(0, 3)))]
        elements.append(ClassSpec(name, kind, base, fields))
    if draw(st.booleans()):
        holder = f"Holder{index}"
        kind, typ = draw(
            st.sampled_from(
                [
                    ("static", "Callable[..., int]"),
                    ("pytree", "Static[Callable[..., int]]"),
                    ("pytree", "Callable[..., int]"),
                ]
            )
        )
        elements.append(ClassSpec(holder, kind, None, [("fn", ("leaf", typ))]))
        style = draw(st.sampled_from(["keyword", "positional", "replace"]))
        elements.append(CallSpec(holder, draw(st.sampled_from(CALL_VALUES)), style))
    for j in range(draw(st.integers(0, 2))):
        if draw(st.integers(0, 4)) == 0:
            elements.append(JitSpec(f"Owner{index}_{j}", [], method=True))
            continue
        defined = [c.name for c in elements if isinstance(c, ClassSpec)]
        params = [(f"p{k}", draw(_field_type(defined))) for k in range(draw(st.integers(1, 2)))]
        elements.append(JitSpec(f"jitted{index}_{j}", params))
    return Unit(draw(st.booleans()), elements)


def _bases(kind: str, earlier: dict[str, str]) -> st.SearchStrategy[str | None]:
    """Bases a class of ``kind`` may have that Python itself accepts."""
    same = {
        "static": ["static", "stdlib_frozen", "stdlib_mutable"],
        "unfrozen": ["static"],
        "pytree": ["pytree"],
        "stdlib_frozen": ["stdlib_frozen"],
        "stdlib_mutable": ["stdlib_mutable"],
        "subclass": ["static"],
    }[kind]
    options: list[str | None] = [name for name, k in earlier.items() if k in same]
    if kind == "subclass":
        return st.sampled_from(options)
    if kind == "static":
        options += ["Plain", "Frozen", "Mutable", "ByValue"]
    return st.one_of(st.none(), st.sampled_from(options)) if options else st.none()


@st.composite
def examples(draw: st.DrawFn) -> list[Unit]:
    """One example: two to four independent units."""
    return [draw(units(index)) for index in range(draw(st.integers(2, 4)))]
