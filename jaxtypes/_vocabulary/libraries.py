"""How other libraries declare a static field, in their own words, and how to undo it.

flax, equinox, jax's own dataclass registration and jax_dataclasses each have a marker that
makes a field static (pytree metadata, which jit compares on every call). The static rules apply
to those fields, judged as metadata (what is right until it is changed in place needs evidence
that it is); findings name the library's marker and give the fix in the library's terms. Both the runtime (``jaxtypes.audit``) and the mypy plugin word their findings
with this table, so they say the same thing.

Imports neither jax nor mypy, nor any of the libraries.
"""

from __future__ import annotations

from typing import NamedTuple

from jaxtypes._vocabulary.rules import (
    EQUINOX_DYNAMIC_FIX,
    FLAX_STRUCT_DYNAMIC_FIX,
    IDENTITY_HASH_FIX,
    JAX_DATACLASS_DYNAMIC_FIX,
    JAX_DATACLASSES_DYNAMIC_FIX,
    JAX_STATIC_CLASS_DYNAMIC_FIX,
    JAXTYPES_DYNAMIC_FIX,
    NOT_FROZEN_FIX,
    PYTREE_METADATA_DYNAMIC_FIX,
    STATIC_DYNAMIC_CHILD,
    STATIC_IDENTITY_HASH,
    STATIC_NOT_FROZEN,
    Rule,
)


class StaticMarker(NamedTuple):
    """One library's way of declaring a static field."""

    marker: str
    """The declaration as users write it, named after the field: ``Foo.b (marker)``."""
    make_dynamic: str
    """The fix for an array or pytree in such a field, in the library's terms."""


FLAX_STRUCT = StaticMarker("struct.field(pytree_node=False)", FLAX_STRUCT_DYNAMIC_FIX)
EQUINOX = StaticMarker("eqx.field(static=True)", EQUINOX_DYNAMIC_FIX)
JAX_DATACLASS = StaticMarker("a meta field of jax.tree_util.register_dataclass", JAX_DATACLASS_DYNAMIC_FIX)
JAX_STATIC_CLASS = StaticMarker("jax.tree_util.register_static", JAX_STATIC_CLASS_DYNAMIC_FIX)
JAX_DATACLASSES = StaticMarker("jdc.Static[...]", JAX_DATACLASSES_DYNAMIC_FIX)
JAXTYPES = StaticMarker("a static field of a jaxtypes.pytree_dataclass", JAXTYPES_DYNAMIC_FIX)
PYTREE_METADATA = StaticMarker("aux data of its flatten function", PYTREE_METADATA_DYNAMIC_FIX)

MARKERS = {
    marker.marker: marker
    for marker in (FLAX_STRUCT, EQUINOX, JAX_DATACLASS, JAX_STATIC_CLASS, JAX_DATACLASSES, JAXTYPES, PYTREE_METADATA)
}
"""Each marker by its words, as the plugin records them for a class (``LibraryFields.marker``)."""


PYTREE_DATACLASS_ALIASES = frozenset({("jax_dataclasses", "pytree_dataclass")})
"""Decorators a library exports to type checkers as ``dataclasses.dataclass`` while at run time
they make frozen pytree classes, as (module, exported name): mypy sees the stdlib's decorator,
so the plugin tells them apart by how the decorator is written."""


def fix_for(rule: Rule, marker: StaticMarker, fix: str | None = None) -> str | None:
    """The fix for a static field declared with ``marker`` that breaks ``rule``, in the library's
    terms; ``fix`` is the finding's own (a tuple for a list), kept unless it is about jaxtypes."""
    if rule is STATIC_DYNAMIC_CHILD:
        return marker.make_dynamic
    if fix is not None:
        return fix
    if rule is STATIC_IDENTITY_HASH:
        return IDENTITY_HASH_FIX
    if rule is STATIC_NOT_FROZEN:
        return NOT_FROZEN_FIX
    return None
