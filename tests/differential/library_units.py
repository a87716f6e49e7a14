"""Generated classes of flax, equinox, jax's dataclass registration and jax_dataclasses, each
with data and static fields of many types, and one instance built with a value of each type.

The runtime's verdict on a unit is ``jaxtypes.audit`` of its instance, the plugin's is mypy's
findings at the field lines; both are sets of ``(field, code)``, and must be equal: unlike an
import, the audit does not stop at the first error.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from tests.differential.modules import COMMON_MODULE

HEADER = f"""\
import dataclasses
from typing import Callable, Optional
import equinox as eqx
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc
import numpy as np
from flax import struct
from {COMMON_MODULE} import ByValue, EqOnly, Frozen, FrozenById, Mutable, Plain, double
"""

VALUES = {
    "int": "3",
    "str": '"relu"',
    "float": "1.5",
    "None": "None",
    "tuple[int, ...]": "(1, 2)",
    "Callable[..., int]": "double",
    "jax.Array": "jnp.ones(2)",
    "np.ndarray": "np.ones(2)",
    "list[int]": "[1]",
    "dict[str, int]": '{"a": 1}',
    "Optional[list[int]]": "[1]",
    "Plain": "Plain()",
    "tuple[Plain, ...]": "(Plain(),)",
    "ByValue": "ByValue()",
    "EqOnly": "EqOnly()",
    "Frozen": "Frozen(1)",
    "FrozenById": "FrozenById(1)",
    "Mutable": "Mutable(1)",
}
"""Each field type, and how a value of it is written."""


@dataclass
class Library:
    """How a library declares a class and its static fields."""

    decorators: tuple[str, ...]
    base: str
    static: str
    """The static field's declaration: ``{type}`` in its annotation, or the value it is assigned."""
    annotation: str = "{type}"


LIBRARIES = {
    "flax": Library(("@struct.dataclass",), "", "struct.field(pytree_node=False)"),
    "flax_node": Library((), "(struct.PyTreeNode)", "struct.field(pytree_node=False)"),
    "equinox": Library((), "(eqx.Module)", "eqx.field(static=True)"),
    "register_dataclass": Library(
        ("@jax.tree_util.register_dataclass", "@dataclasses.dataclass"), "", "jax.tree.static()"
    ),
    "register_call": Library(("@dataclasses.dataclass",), "", ""),
    "jax_dataclasses": Library(("@jdc.pytree_dataclass",), "", "", "jdc.Static[{type}]"),
}


@dataclass
class LibraryUnit:
    """A class of ``library`` with ``fields`` (name, type, static), and an instance of it."""

    library: str
    fields: list[tuple[str, str, bool]]

    def source(self) -> tuple[str, dict[int, str]]:
        """The module, and which field each field line declares."""
        spec = LIBRARIES[self.library]
        out = [*HEADER.splitlines(), "", *spec.decorators, f"class Node{spec.base}:"]
        lines: dict[int, str] = {}
        for name, typ, static in self.fields:
            annotation = spec.annotation.format(type=typ) if static else typ
            value = f" = {spec.static}" if static and spec.static else ""
            out.append(f"    {name}: {annotation}{value}")
            lines[len(out)] = name
        if self.library == "register_call":
            data = [name for name, _, static in self.fields if not static]
            meta = [name for name, _, static in self.fields if static]
            out += ["", f"jax.tree_util.register_dataclass(Node, data_fields={data}, meta_fields={meta})"]
        arguments = ", ".join(f"{name}={VALUES[typ]}" for name, typ, _ in self.fields)
        out += ["", f"instance = Node({arguments})"]
        return "\n".join(out) + "\n", lines


@st.composite
def library_units(draw: st.DrawFn) -> LibraryUnit:
    library = draw(st.sampled_from(sorted(LIBRARIES)))
    count = draw(st.integers(1, 4))
    fields = [(f"f{i}", draw(st.sampled_from(sorted(VALUES))), draw(st.booleans())) for i in range(count)]
    return LibraryUnit(library, fields)


def library_examples() -> st.SearchStrategy[list[LibraryUnit]]:
    """One example: three to six independent units."""
    return st.lists(library_units(), min_size=3, max_size=6)
