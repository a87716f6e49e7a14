"""``Static[T]`` and ``Dynamic[T]``: annotations that say how jit treats a field or parameter.

Both are generic ``Annotated`` aliases, so every type checker sees plain ``T``; the mypy plugin
recognises them by their full names (``jaxtypes._classes.markers.Static``), the runtime by the marker
object inside the ``Annotated``. ``spell`` writes a resolved annotation the way messages spell
types on both sides (``phrases``), as the plugin's ``markers.spell`` does.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Annotated, Any, TypeVar

from typing_extensions import TypeAlias

from jaxtypes._classes.errors import MarkerError, class_name
from jaxtypes._classes.static_values import is_array_type
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.positions import MarkerKind

T = TypeVar("T")


class Marker:
    """The metadata object inside ``Static[...]`` / ``Dynamic[...]``; compared by identity."""

    __slots__ = ("kind",)

    def __init__(self, kind: MarkerKind) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"jaxtypes.{self.kind.capitalize()}"


STATIC_MARKER = Marker("static")
DYNAMIC_MARKER = Marker("dynamic")

Static: TypeAlias = Annotated[T, STATIC_MARKER]
"""A hashable setting that jit compiles into the code: changing it recompiles."""

Dynamic: TypeAlias = Annotated[T, DYNAMIC_MARKER]
"""Data traced by jit (arrays, pytrees): new values reuse the compiled code."""


def read_marker(hint: Any, where: str, defined_at: object = None) -> tuple[MarkerKind | None, Any]:
    """Split a resolved annotation into its marker (if any) and the type it wraps.

    ``where`` names the field or parameter for the error raised when the annotation carries
    both markers or has a marker nested inside another type, which jaxtypes would otherwise
    silently ignore; ``defined_at`` (the class or function) gives the error its ``file:line``.
    """
    kinds = []
    inner = hint
    if typing.get_origin(hint) is Annotated:
        inner = hint.__origin__
        kinds = [m.kind for m in hint.__metadata__ if isinstance(m, Marker)]
    if len(set(kinds)) > 1:
        raise MarkerError(phrases.BOTH_MARKERS, where, defined_at=defined_at)
    nested = _nested_marker(inner)
    if nested is not None:
        raise MarkerError(phrases.nested_marker(nested.kind, spell(inner)), where, defined_at=defined_at)
    return (kinds[0] if kinds else None), inner


def _nested_marker(hint: Any) -> Marker | None:
    """The first marker found anywhere inside ``hint``'s type arguments."""
    for arg in typing.get_args(hint):
        if typing.get_origin(arg) is Annotated:
            for meta in arg.__metadata__:
                if isinstance(meta, Marker):
                    return meta
        found = _nested_marker(arg)
        if found is not None:
            return found
    return None


def spell(hint: Any) -> str:
    """A resolved annotation as messages spell it: ``list[int | None]``, ``Static[int]``,
    ``jax.Array``, ``pkg.Config``; a name not defined yet as it was written."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Annotated:
        kinds = [meta.kind for meta in hint.__metadata__ if isinstance(meta, Marker)]
        inner = spell(hint.__origin__)
        return phrases.spell_marked(kinds[0], inner) if kinds else inner
    if origin in (typing.Union, types.UnionType):
        return phrases.spell_union([spell(arg) for arg in args])
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return phrases.spell_variadic_tuple(spell(args[0]))
    if origin is collections.abc.Callable and len(args) == 2:
        parameters = None if args[0] is Ellipsis else [spell(arg) for arg in args[0]]
        return phrases.spell_callable(parameters, spell(args[1]))
    if isinstance(origin, type) and args:
        return phrases.spell_generic(spell(origin), [spell(arg) for arg in args])
    if isinstance(hint, typing.ForwardRef):
        return hint.__forward_arg__
    if hint is None:
        return "None"
    if isinstance(hint, type) and not isinstance(hint, types.GenericAlias):
        if is_array_type(hint) and hint.__module__.startswith(("jax", "numpy")):
            return phrases.spell_array(hint.__name__.rpartition(".")[2])
        return phrases.spell_class(hint.__module__, class_name(hint))
    return repr(hint).replace("typing.", "")
