"""Names from imports mypy cannot follow, silenced, used in every static position."""
from typing import Optional

from nowhere import Thing  # type: ignore[import-not-found]
from jaxtypes import Nope  # type: ignore[attr-defined]
from jaxtypes import Static, pytree_dataclass, static_dataclass
import jaxtypes


@static_dataclass
class UsesThing:
    thing: Thing
    maybe: Optional[Thing]
    nope: Nope


@pytree_dataclass
class Pytree:
    thing: Static[Thing]


@jaxtypes.jit
def run(x: Thing, y: Static[Thing]) -> Thing:
    return x


UsesThing(Thing().method, None, Nope)
