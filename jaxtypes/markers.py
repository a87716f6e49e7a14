"""``Static[T]`` and ``Dynamic[T]``: annotations that say how jit treats a field or parameter.

Both are generic ``Annotated`` aliases, so every type checker sees plain ``T``; the mypy plugin
recognises them by their full names (``jaxtypes.markers.Static``), the runtime by the marker
object inside the ``Annotated``.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, TypeVar

from typing_extensions import TypeAlias

from jaxtypes.errors import MarkerError
from jaxtypes.positions import MarkerKind
from jaxtypes.rules import MARKER_MISUSE

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
        raise MarkerError(
            MARKER_MISUSE,
            where,
            "is annotated both Static[...] and Dynamic[...]",
            fix="keep one marker: Static for hashable settings, Dynamic for arrays",
            defined_at=defined_at,
        )
    nested = _nested_marker(inner)
    if nested is not None:
        raise MarkerError(
            MARKER_MISUSE,
            where,
            f"has {nested.kind.capitalize()}[...] nested inside {_type_name(inner)}",
            defined_at=defined_at,
        )
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


def _type_name(hint: Any) -> str:
    return repr(hint).replace("typing.", "")
