"""Markers without arguments, with too many, with odd ones."""
from typing import Any

import jaxtypes
from jaxtypes import Dynamic, Static, pytree_dataclass, static_dataclass


@static_dataclass
class Bare:
    a: Static  # type: ignore[type-arg]
    b: Dynamic  # type: ignore[type-arg]
    c: Static[int, str]  # type: ignore[type-arg]
    d: Static[()]  # type: ignore[valid-type]
    e: Static[...]  # type: ignore[valid-type]
    f: Static[Static]  # type: ignore[type-arg]
    g: "Static[NotDefined]"  # type: ignore[name-defined]


@pytree_dataclass
class BareTree:
    a: Static  # type: ignore[type-arg]
    b: Static[Any]


@jaxtypes.jit
def f(x: Static, *args: Static[int], **kwargs: Static[list[int]]) -> Any:  # type: ignore[type-arg]
    return x


jaxtypes.jit()
jaxtypes.jit(jaxtypes.jit(f))
jaxtypes.jit(lambda x: x)
