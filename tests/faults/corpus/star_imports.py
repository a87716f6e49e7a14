"""Star imports of jaxtypes and its modules."""
from jaxtypes import *
from jaxtypes._classes.markers import *
from jaxtypes._classes.static import *


@static_dataclass
class Starred:
    items: list[int]
    marked: Static[int]


@pytree_dataclass
class StarredTree:
    items: Static[list[int]]
