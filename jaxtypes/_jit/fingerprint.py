"""Fingerprints of static values that are the same in every process holding an equal value.

jit finds compiled code by the ``__hash__`` of static values, and hashes differ between
processes: string hashes are salted per interpreter (``PYTHONHASHSEED``) and identity hashes are
addresses. A fingerprint is the SHA-256 of a *description* built only from what every process
shares: the value's structure, qualified type names (``module.Qualname``), enum members by
name, functions and classes by module and qualified name, floats by ``repr`` and frozensets in
sorted order. Values that are equal as static values (type-strictly: ``1``, ``1.0`` and ``True``
differ) have equal fingerprints in any process, and a description, unlike a hash, says where
two values differ (``config.solver.tolerance``).

A description is plain JSON data, one node per value:

- ``["leaf", type, text]``: a scalar, an enum member, a named function or class, or any other
  hashable value by its ``repr`` (by its type alone when the ``repr`` shows a memory address);
- ``["node", type, [[step, child], ...]]``: a dataclass (steps ``.field``), a tuple (``[i]``),
  a dict in a pytree (``['key']``);
- ``["set", type, [child, ...]]``: a frozenset, its members sorted by their JSON text.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from jaxtypes._classes.errors import StaticValueError
from jaxtypes._classes.static_values import PYTREE_CLASS_FLAG, STATIC_CLASS_FLAG, ProblemFound, static_key

Node = list[Any]
"""A JSON-able description of a value (see the module docstring)."""

_SCALARS = frozenset({int, bool, str, bytes, float, complex, type(None)})
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SHORT = 80


class Difference(NamedTuple):
    """Where two descriptions differ (``config.solver.tolerance``) and the two values there."""

    path: str
    here: str
    there: str


def static_fingerprint(value: Any) -> str:
    """The fingerprint of a static value: 64 hex digits, the same in every process and run.

    Raises ``StaticValueError`` for a value that cannot be static (an array, a list, an object
    that hashes by identity), as a static field holding it would.
    """
    return digest(describe(value, "value"))


def digest(node: Node) -> str:
    """The SHA-256 (hex) of a description's canonical JSON text."""
    return hashlib.sha256(encode(node).encode("ascii")).hexdigest()


def encode(node: Node | None) -> str:
    """A description's canonical JSON text."""
    return json.dumps(node, ensure_ascii=True, separators=(",", ":"))


def describe(value: Any, where: str) -> Node:
    """The description of a static value; ``where`` names it in the error for one that is not."""
    try:
        static_key(value)
    except ProblemFound as found:
        raise found.as_error(StaticValueError, where, defined_at=None) from None
    return _describe(value)


def describe_metadata(value: Any) -> Node | None:
    """The description of what jit compiles in from a traced argument: the static fields of the
    ``pytree_dataclass`` instances in it (through tuples, lists and dicts); None if there are none."""
    cls = type(value)
    info = cls.__dict__.get(PYTREE_CLASS_FLAG)
    steps: list[tuple[str, Any]]
    if info is not None:
        parts = [[f".{name}", _field(value, name, by_id)] for name, by_id in info.meta_fields]
        steps = [(f".{name}", getattr(value, name)) for name in info.data_fields]
    elif cls in (tuple, list):
        parts, steps = [], [(f"[{i}]", item) for i, item in enumerate(value)]
    elif cls is dict:
        parts, steps = [], [(f"[{key!r}]", value[key]) for key in sorted(value, key=repr)]
    else:
        return None
    parts += [[step, child] for step, item in steps if (child := describe_metadata(item)) is not None]
    return ["node", _type_name(cls), parts] if parts else None


def differences(here: Node | None, there: Node | None, path: str = "") -> list[Difference]:
    """The deepest places where two descriptions differ, in the order of ``here``'s fields.

    Steps are appended to ``path`` as they are, so a first step without ``.`` or ``[`` (an
    argument's name) starts the path; a step only one side has is "absent" on the other.
    """
    if here == there:
        return []
    if here is None or there is None or here[:2] != there[:2] or here[0] != "node":
        typed = here is not None and there is not None and here[1] != there[1]
        return [Difference(path, render(here, typed), render(there, typed))]
    theirs = dict(there[2])
    found: list[Difference] = []
    for step, child in here[2]:
        found += differences(child, theirs.pop(step, None), path + step)
    found += [Difference(path + step, "absent", render(child)) for step, child in theirs.items()]
    return found


def render(node: Node | None, typed: bool = False) -> str:
    """A description as a short text for a message; ``typed`` adds a leaf's type name."""
    text = _render(node, typed)
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


def _render(node: Node | None, typed: bool) -> str:
    if node is None:
        return "absent"
    kind, type_name, payload = node
    if kind == "leaf":
        if not payload:
            return f"a {type_name}"
        return f"{payload} ({type_name})" if typed else payload
    if kind == "set":
        return f"{type_name}({{{', '.join(_render(child, False) for child in payload)}}})"
    if type_name == "tuple":
        return f"({', '.join(_render(child, False) for _, child in payload)}{',' if len(payload) == 1 else ''})"
    fields = ", ".join(f"{step.lstrip('.')}={_render(child, False)}" for step, child in payload)
    return f"{type_name}({fields})"


def _describe(value: Any) -> Node:
    """The description of a value that ``static_key`` accepted."""
    cls = type(value)
    if cls in _SCALARS:
        return ["leaf", cls.__name__, repr(value)]
    if cls is tuple:
        return ["node", "tuple", [[f"[{i}]", _describe(item)] for i, item in enumerate(value)]]
    if cls is frozenset:
        return ["set", "frozenset", sorted((_describe(item) for item in value), key=encode)]
    info = cls.__dict__.get(STATIC_CLASS_FLAG)
    if info is not None:
        parts = [[f".{name}", _field(value, name, by_id)] for name, by_id in info.fields]
        return ["node", _type_name(cls), parts]
    if isinstance(value, enum.Enum):
        return ["leaf", _type_name(cls), f"{cls.__name__}.{value.name}"]
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and cls.__dataclass_params__.eq:
        return _fields(value, [f.name for f in dataclasses.fields(value)])
    if isinstance(value, tuple) and hasattr(cls, "_fields"):
        return _fields(value, cls._fields)
    return _opaque(value)


def _fields(value: Any, names: Iterable[str]) -> Node:
    """A frozen stdlib dataclass or a named tuple, field by field."""
    return ["node", _type_name(type(value)), [[f".{name}", _describe(getattr(value, name))] for name in names]]


def _field(instance: Any, name: str, by_id: bool) -> Node:
    """A static field's description; a ``hash_by_id`` field is vouched for, so not walked."""
    value = getattr(instance, name)
    return _opaque(value) if by_id else _describe(value)


def _opaque(value: Any) -> Node:
    """A value jaxtypes does not look inside: a named function or class by its qualified name,
    anything else by its ``repr``, or by its type alone when the ``repr`` shows an address."""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if isinstance(name, str):
        module = getattr(value, "__module__", None)
        return ["leaf", _type_name(type(value)), f"{module}.{name}" if module else name]
    text = repr(value)
    return ["leaf", _type_name(type(value)), "" if _ADDRESS.search(text) else text]


def _type_name(cls: type) -> str:
    """``module.Qualname``, or the bare name of a builtin type."""
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
