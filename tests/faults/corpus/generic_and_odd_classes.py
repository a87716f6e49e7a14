"""Generic static classes, protocols, enums, metaclasses and slots in static positions."""
import abc
import enum
from typing import Generic, Protocol, TypeVar

from jaxtypes import Static, pytree_dataclass, static_dataclass

T = TypeVar("T")


class Meta(type):
    def __hash__(cls) -> int:
        return 0


class WithMeta(metaclass=Meta):
    pass


class Color(enum.Enum):
    RED = 1


class Proto(Protocol):
    def run(self) -> int: ...


class Abstract(abc.ABC):
    @abc.abstractmethod
    def run(self) -> int: ...


@static_dataclass
class Box(Generic[T]):
    item: T
    items: tuple[T, ...]


@static_dataclass
class UsesOdd:
    box: Box[list[int]]
    color: Color
    meta: WithMeta
    proto: Proto
    abstract: Abstract
    kind: type[list[int]]


@pytree_dataclass
class TreeBox(Generic[T]):
    item: Static[T]
    box: Static[Box[T]]
