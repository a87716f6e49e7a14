"""Snapshots of live values: what a value held when jit compiled for it, to tell later whether it
has changed since.

jit keys compiled code on a static value's hash and ``==``; an object changed in place keeps
both (an identity hash, or a value hash over fields nobody re-reads), so the cache cannot tell.
A snapshot records the value down to its scalars, as plain data taken when jit compiled;
``difference`` compares it with a snapshot taken now and names the first place they differ
(``c.mul: True -> False``). A *settled* value (scalars, strings, enum members, tuples and frozen
dataclasses of those, jax arrays) cannot change, so it needs no snapshot after the first look.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
from typing import Any, NamedTuple

from jaxtypes._classes.static_values import is_array

_SCALARS = (int, float, complex, str, bytes, bool, type(None))
_CODE = (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, type)
_DEPTH = 6
_SHORT = 60


class Snapshot(NamedTuple):
    """One value's contents: ``kind`` (``value``, ``same``, ``array``, ``items``, ``mapping``,
    ``attributes``), its type, and what the kind keeps (the value, the object, a copy, children)."""

    kind: str
    cls: type
    held: Any


class Difference(NamedTuple):
    """Where a value changed (``c.mul``), and how it reads before and after."""

    path: str
    before: str
    after: str


def snapshot(value: Any, depth: int = _DEPTH) -> Snapshot:
    """What ``value`` holds now, down to ``depth`` levels of containers and attributes."""
    cls = type(value)
    if cls in _SCALARS or isinstance(value, enum.Enum):
        return Snapshot("value", cls, value)
    if is_array(value) and not _is_numpy(value) or _is_code(value) or depth == 0:
        return Snapshot("same", cls, value)
    if _is_numpy(value):
        return Snapshot("array", cls, value.copy())
    if isinstance(value, (tuple, list)):
        return Snapshot("items", cls, tuple(snapshot(item, depth - 1) for item in value))
    if isinstance(value, (set, frozenset)):
        return Snapshot("value", cls, frozenset(value))
    if isinstance(value, dict):
        return Snapshot("mapping", cls, {key: snapshot(item, depth - 1) for key, item in value.items()})
    parts = _attributes(value)
    if parts is None:
        return Snapshot("same", cls, value)
    return Snapshot("attributes", cls, {name: snapshot(part, depth - 1) for name, part in parts.items()})


def difference(before: Snapshot, after: Snapshot, path: str) -> Difference | None:
    """The first place where two snapshots of a value (named ``path``) differ, or None."""
    if before.cls is not after.cls or before.kind != after.kind:
        return Difference(path, _short(before), _short(after))
    if before.kind == "value" and not _same_value(before.held, after.held):
        return Difference(path, _short(before), _short(after))
    if before.kind == "same" and not _same_object(before.held, after.held):
        return Difference(path, _short(before), _short(after))
    if before.kind == "array" and not _same_array(before.held, after.held):
        return Difference(path, _short(before), _short(after))
    if before.kind == "items":
        if len(before.held) != len(after.held):
            return Difference(path, _short(before), _short(after))
        for index, (old, new) in enumerate(zip(before.held, after.held)):
            found = difference(old, new, f"{path}[{index}]")
            if found is not None:
                return found
    if before.kind in ("mapping", "attributes"):
        if before.held.keys() != after.held.keys():
            return Difference(path, _short(before), _short(after))
        step = "{}[{!r}]" if before.kind == "mapping" else "{}.{}"
        for key, old in before.held.items():
            found = difference(old, after.held[key], step.format(path, key))
            if found is not None:
                return found
    return None


def settled(value: Any, depth: int = _DEPTH) -> bool:
    """``value`` cannot change after it is made: scalars, enum members, functions and classes,
    jax arrays, and tuples, frozensets and frozen dataclasses holding only settled values."""
    cls = type(value)
    if cls in _SCALARS or isinstance(value, enum.Enum) or _is_code(value):
        return True
    if depth == 0:
        return False
    if is_array(value):
        return not _is_numpy(value)
    if isinstance(value, (tuple, frozenset)):
        return all(settled(item, depth - 1) for item in value)
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return all(settled(getattr(value, f.name), depth - 1) for f in dataclasses.fields(value))
    return False


def _is_code(value: Any) -> bool:
    """A function, class or module, or a callable wrapping a function (``functools.wraps``: what
    ``jax.jit`` and the sanitizer return), whose identity is its value: jit keys code on it so."""
    return isinstance(value, _CODE) or callable(value) and getattr(value, "__wrapped__", None) is not None


def _attributes(value: Any) -> dict[str, Any] | None:
    """An object's attributes: a dataclass's fields, else its ``__dict__`` (None for neither)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    attributes = getattr(value, "__dict__", None)
    return dict(attributes) if isinstance(attributes, dict) else None


def _is_numpy(value: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def _same_value(a: Any, b: Any) -> bool:
    try:
        return a is b or type(a) is type(b) and bool(a == b)
    except Exception:  # an == that gives no bool: never the same
        return False


def _same_object(a: Any, b: Any) -> bool:
    """Two objects kept as they are: the same one, or, for an object with no parts to look into
    (a ``PyTreeDef``, an opaque library object), one equal by its own ``==`` as jit compares it.
    Functions and jax arrays are only themselves."""
    return a is b or not (_is_code(a) or is_array(a)) and _same_value(a, b)


def _same_array(a: Any, b: Any) -> bool:
    np = sys.modules["numpy"]
    numeric = a.dtype.kind in "fc"  # NaN is only among floats; an object array has no isnan
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=numeric))


def _short(snap: Snapshot) -> str:
    """A snapshot as a person reads it, in at most ``_SHORT`` characters."""
    text = _text(snap)
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


def _text(snap: Snapshot) -> str:
    """A snapshot written out as the value's repr would read (an array by its shape)."""
    if snap.kind in ("value", "same"):
        return repr(snap.held)
    if snap.kind == "array":
        return f"array{list(snap.held.shape)}"
    if snap.kind == "items":
        items = ", ".join(_text(item) for item in snap.held)
        if snap.cls is list:
            return f"[{items}]"
        return (
            f"({items}{',' if len(snap.held) == 1 else ''})" if snap.cls is tuple else f"{snap.cls.__name__}({items})"
        )
    if snap.kind == "mapping":
        return "{" + ", ".join(f"{key!r}: {_text(item)}" for key, item in snap.held.items()) + "}"
    return f"{snap.cls.__name__}(" + ", ".join(f"{name}={_text(part)}" for name, part in snap.held.items()) + ")"
