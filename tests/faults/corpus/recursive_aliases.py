"""Recursive type aliases and aliases of markers, in static positions."""
from typing import Optional, Union

from typing_extensions import TypeAlias, TypeAliasType

from jaxtypes import Dynamic, Static, pytree_dataclass, static_dataclass

Tree: TypeAlias = Union[int, tuple["Tree", ...]]
Nested: TypeAlias = Optional[list["Nested"]]
StaticTree: TypeAlias = Static[Tree]
Wrapped: TypeAlias = Optional[tuple[Static[int], "Wrapped"]]
Json = TypeAliasType("Json", Union[int, str, list["Json"], dict[str, "Json"]])


@static_dataclass
class UsesAliases:
    tree: Tree
    nested: Nested
    json: Json


@pytree_dataclass
class PytreeAliases:
    tree: StaticTree
    wrapped: Static[Wrapped]
    json: Static[Json]
