"""Classes defined under conditions, in try/except, in functions, redefined."""
import sys
from typing import TYPE_CHECKING

from jaxtypes import Static, pytree_dataclass, static_dataclass

if TYPE_CHECKING:
    from jaxtypes import Dynamic as Marker
else:
    from jaxtypes import Static as Marker

if sys.version_info >= (3, 11):

    @static_dataclass
    class Config:
        items: list[int]

else:

    @static_dataclass
    class Config:  # type: ignore[no-redef]
        items: tuple[int, ...]


try:

    @static_dataclass
    class Guarded:
        value: Marker[int]

except TypeError:
    Guarded = None  # type: ignore[assignment, misc]


def make() -> type:
    @pytree_dataclass
    class Local:
        inner: Static[Config]
        items: Static[list[int]]

    return Local


class Outer:
    @static_dataclass
    class Inner:
        items: list[int]


@static_dataclass
class Redefined:
    a: int


@static_dataclass  # type: ignore[no-redef]
class Redefined:  # type: ignore[no-redef]
    a: list[int]
