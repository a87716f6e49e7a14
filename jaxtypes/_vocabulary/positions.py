"""Which fields and parameters jit treats as static: one decision, for the runtime and the plugin.

A position is static (hashed into jit's cache key, validated by the static rules) when it is a
field of a static dataclass, is declared ``field(hash_by_id=True)``, is annotated ``Static[...]``,
or is typed, with no marker, as a static dataclass (so is a method's ``self``, typed as its
class). Everything else is traced (a pytree's data field, an ordinary jitted parameter). The
runtime (``pytree``, ``static``, ``jaxtypes_jit``) and the mypy plugin (``classes``, ``jaxtypes_jit``)
each find those facts in their own material and ask ``is_static``. Imports neither jax nor mypy.
"""

from __future__ import annotations

from typing import Literal

MarkerKind = Literal["static", "dynamic"]
"""The marker a field or parameter is annotated with: ``Static[...]`` or ``Dynamic[...]``."""


def is_static(
    marker: MarkerKind | None,
    *,
    static_class_type: bool,
    hash_by_id: bool = False,
    in_static_class: bool = False,
) -> bool:
    """Whether jit treats a field or parameter as static.

    ``marker`` is its outermost marker, ``static_class_type`` whether the type inside it is a
    static dataclass, ``hash_by_id`` whether it is a field declared ``field(hash_by_id=True)``,
    and ``in_static_class`` whether it is a field of a static dataclass (all of which are static;
    ``Dynamic[...]`` there is a misuse, reported on its own).
    """
    if in_static_class or hash_by_id or marker == "static":
        return True
    return marker is None and static_class_type
