"""User definitions that shadow jaxtypes names: Static, static_dataclass, field."""
from typing import Generic, TypeVar

import jaxtypes

T = TypeVar("T")


class Static(Generic[T]):
    pass


def static_dataclass(cls: type[T]) -> type[T]:
    return cls


def field(**options: object) -> object:
    return options


@static_dataclass
class NotJaxtypes:
    items: Static[list[int]]
    other: list[int] = field(hash_by_id=True)  # type: ignore[assignment]


@jaxtypes.static_dataclass
class RealOne:
    shadow: Static[int]


class static_dataclass_class:
    pass


jaxtypes.Static = Static  # type: ignore[misc]
