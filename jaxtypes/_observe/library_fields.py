"""Static fields of other libraries' classes, judged on live values: the runtime twin of the
plugin's ``library_fields``.

A dataclass node's static fields are the ones its flatten does not return as children
(``struct.field(pytree_node=False)``, ``eqx.field(static=True)``, meta fields, ``jdc.Static``,
``Static[...]``); each is judged with the value rules of ``static_values``, and a problem is
worded with the library's marker and fix (``jaxtypes._vocabulary.libraries``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from typing import Any

from jaxtypes._classes.declared_types import resolve_hint
from jaxtypes._classes.errors import StaticValueError
from jaxtypes._classes.static_values import PYTREE_CLASS_FLAG, ProblemFound, compares_as_number, static_key
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import (
    EQUINOX,
    FLAX_STRUCT,
    JAX_DATACLASS,
    JAX_DATACLASSES,
    JAXTYPES,
    StaticMarker,
    fix_for,
)
from jaxtypes._vocabulary.rules import STATIC_DYNAMIC_CHILD, STATIC_FRESH_CALLABLE

_JDC_MARKER = "__jax_dataclasses_static_field__"


def static_fields(
    node: Any, path: str, children: list[Any], metadata: Any, meets_jit: bool = False
) -> Iterator[StaticValueError]:
    """A dataclass node's static fields, each judged as its library declares it (``checked``)."""
    for field, value in static_field_values(node, children, metadata):
        marker = _declared_marker(type(node), field) or JAX_DATACLASS
        yield from checked(value, f"{path}.{field.name}", marker, type(node), meets_jit)


def static_field_values(node: Any, children: list[Any], metadata: Any) -> Iterator[tuple[dataclasses.Field[Any], Any]]:
    """A dataclass node's static fields and their values: those its flatten does not return as
    children (by the keys' names, or where it names none, by identity), and does return in its
    metadata as they are, or all of them where the node is its own metadata (``register_static``);
    a flatten function of its own may turn a field into something else first (MJX keeps an array
    as its bytes)."""
    names = [getattr(key, "name", None) for key, _ in children]
    values = [child for _, child in children]
    for field in dataclasses.fields(node):
        if not field.init or not hasattr(node, field.name):
            continue
        value = getattr(node, field.name)
        data = field.name in names if None not in names else any(value is child for child in values)
        if not data and (metadata is node or _held_in(value, metadata, _HELD_DEPTH)):
            yield field, value


_HELD_DEPTH = 3


def _held_in(value: Any, metadata: Any, depth: int) -> bool:
    """Whether ``metadata`` is ``value``, or holds it in its tuples, lists or dicts."""
    if metadata is value:
        return True
    if depth == 0:
        return False
    if isinstance(metadata, dict):
        metadata = list(metadata.values())
    return isinstance(metadata, (tuple, list)) and any(_held_in(value, item, depth - 1) for item in metadata)


def _declared_marker(cls: type, field: dataclasses.Field[Any]) -> StaticMarker | None:
    """The library marker that declares ``field`` static, if it names one."""
    if PYTREE_CLASS_FLAG in cls.__dict__:
        return JAXTYPES
    if field.metadata.get("pytree_node", True) is False:
        return FLAX_STRUCT
    equinox = sys.modules.get("equinox")
    if equinox is not None and issubclass(cls, equinox.Module):
        return EQUINOX
    if _JDC_MARKER in getattr(_annotation(cls, field), "__metadata__", ()) or field.metadata.get(_JDC_MARKER):
        return JAX_DATACLASSES
    return None


def _annotation(cls: type, field: dataclasses.Field[Any]) -> Any:
    """A field's annotation, evaluated in its class's module if written as a string."""
    if not isinstance(field.type, str):
        return field.type
    module = sys.modules.get(cls.__module__)
    try:
        return resolve_hint(field.type, dict(vars(module)) if module else {})
    except (AttributeError, SyntaxError, TypeError):  # not an annotation jaxtypes can read
        return None


def checked(
    value: Any, where: str, marker: StaticMarker, cls: type, meets_jit: bool = False
) -> Iterator[StaticValueError]:
    """The problem of a value in pytree metadata, which jit compares with ``==``: a value that
    only goes wrong if it is changed in place, built again, or (an array) compared with another
    instance's, or under a trace, is the rule's opt-in twin (``phrases.unobserved``), since a
    value seen once shows none of that (the sanitizer sees jit's cache); but a shaped array in
    a tree that ``meets_jit`` (the sanitizer's view of a jitted call's arguments: another
    instance's arrays meet it there)."""
    try:
        static_key(value)
    except ProblemFound as found:
        if found.rule is STATIC_FRESH_CALLABLE and found.path:
            return  # a closure inside another value (see the module docstring)
        found.problem = found.problem._replace(fix=fix_for(found.rule, marker, found.problem.fix))
        if found.rule is not STATIC_DYNAMIC_CHILD or compares_as_number(value) or not meets_jit:
            found.problem = phrases.unobserved(found.problem)
        yield found.as_error(StaticValueError, phrases.library_field(where, marker.marker), defined_at=cls)
