"""Star imports of jaxtypes and its modules."""
from jaxtypes import *
from jaxtypes.markers import *
from jaxtypes.static import *


@static_dataclass
class Starred:
    items: list[int]
    marked: Static[int]


@pytree_dataclass
class StarredTree:
    items: Static[list[int]]
