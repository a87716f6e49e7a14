"""``jaxtypes.audit``: every static value in a pytree that breaks a rule, with its path.

The runtime twin of the plugin's checks on static fields declared with other libraries'
markers (``jaxtypes._vocabulary.libraries``). It walks any pytree one node at a time, as jax flattens it
(flax and equinox modules, classes registered with ``jax.tree_util``, jaxtypes classes, nested
containers), and checks the static part of each node with the value rules of ``values``:

- a dataclass node's static fields, the ones its flatten does not return as children
  (``struct.field(pytree_node=False)``, ``eqx.field(static=True)``, meta fields, ``jdc.Static``,
  ``Static[...]``);
- an object registered with ``register_static``, as a whole;
- the metadata of any other node, for arrays only: its meaning is the node's own business
  (flax NNX keeps dicts there by design).

A lambda or local function is reported where it is a static field's value itself: the code that
builds the tree made it, and makes a new one each time. Inside another value (optax's
``GradientTransformation`` holds its own closures) the value comes with the object jit keeps
seeing as long as the tree carries it.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from typing import Any

from jaxtypes._vocabulary import phrases
from jaxtypes._classes.declared_types import resolve_hint
from jaxtypes._classes.errors import StaticValueError
from jaxtypes._jit.jax_internals import flatten_one_level
from jaxtypes._vocabulary.libraries import (
    EQUINOX,
    FLAX_STRUCT,
    JAX_DATACLASS,
    JAX_DATACLASSES,
    JAX_STATIC_CLASS,
    JAXTYPES,
    PYTREE_METADATA,
    StaticMarker,
    applies,
    fix_for,
)
from jaxtypes._vocabulary.rules import STATIC_FRESH_CALLABLE
from jaxtypes._classes.static_values import PYTREE_CLASS_FLAG, ProblemFound, is_array, static_key

_CONTAINERS = (tuple, list, dict, type(None))
_JDC_MARKER = "__jax_dataclasses_static_field__"


def audit(tree: Any, name: str = "tree") -> list[StaticValueError]:
    """The static values in ``tree`` that break a rule, as errors (not raised), in tree order.

    ``name`` starts each path (``state.model.table``). Use it before a long run, or in a test:
    ``assert not jaxtypes.audit(state, "state")``.
    """
    return list(_audit(tree, name))


def _audit(node: Any, path: str) -> Iterator[StaticValueError]:
    import jax

    found = flatten_one_level(node)
    if found is None:  # a leaf
        return
    children, metadata = found
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield from _static_fields(node, path, list(children))
    elif metadata is node:
        yield from _checked(node, path, JAX_STATIC_CLASS, type(node))
    elif not isinstance(node, _CONTAINERS) and not _is_nnx(node):
        yield from _arrays_in(metadata, path, type(node))
    for key, child in children:
        yield from _audit(child, path + jax.tree_util.keystr((key,)))


def _static_fields(node: Any, path: str, children: list[Any]) -> Iterator[StaticValueError]:
    """A dataclass node's static fields: those its flatten does not return as children (by the
    keys' names, or where it names none, by identity)."""
    cls = type(node)
    names = [getattr(key, "name", None) for key, _ in children]
    values = [child for _, child in children]
    for field in dataclasses.fields(node):
        if not field.init or not hasattr(node, field.name):
            continue
        value = getattr(node, field.name)
        data = field.name in names if None not in names else any(value is child for child in values)
        if not data:
            marker = _declared_marker(cls, field) or JAX_DATACLASS
            yield from _checked(value, f"{path}.{field.name}", marker, cls)


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


def _checked(value: Any, where: str, marker: StaticMarker, cls: type) -> Iterator[StaticValueError]:
    try:
        static_key(value)
    except ProblemFound as found:
        if (found.rule is STATIC_FRESH_CALLABLE and found.path) or not applies(found.rule, marker):
            return  # a closure inside another value (see the module docstring), or a rule the library lifts
        found.problem = found.problem._replace(fix=fix_for(found.rule, marker, found.problem.fix))
        yield found.as_error(StaticValueError, phrases.library_field(where, marker.marker), defined_at=cls)


def _arrays_in(metadata: Any, path: str, cls: type) -> Iterator[StaticValueError]:
    import jax

    for keys, leaf in jax.tree_util.tree_flatten_with_path(metadata)[0]:
        if is_array(leaf):
            problem = phrases.array_value(type(leaf).__name__, at=jax.tree_util.keystr(keys) if keys else "")
            found = ProblemFound(problem._replace(fix=PYTREE_METADATA.make_dynamic))
            yield found.as_error(StaticValueError, phrases.library_field(path, PYTREE_METADATA.marker), defined_at=cls)


def _is_nnx(node: Any) -> bool:
    """A flax NNX node (``nnx.Pytree``, whose modules are pytrees from flax 0.11 on)."""
    pytree = getattr(sys.modules.get("flax.nnx"), "Pytree", None)
    return isinstance(pytree, type) and isinstance(node, pytree)
