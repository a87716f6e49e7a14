"""Decorators applied twice, mixed, called with odd arguments."""
import dataclasses

from jaxtypes import Static, field, pytree_dataclass, static_dataclass

FLAG = True


@static_dataclass
@static_dataclass
class Twice:
    n: int


@pytree_dataclass
@static_dataclass
class Mixed:
    n: Static[int]


@static_dataclass
@dataclasses.dataclass
class OverStdlib:
    items: list[int]


@static_dataclass(frozen=FLAG)
class ComputedFrozen:
    n: int


@static_dataclass()
class EmptyCall:
    n: int = field(hash_by_id=FLAG)


decorate = static_dataclass(intern=False)


@decorate
class ThroughName:
    n: int
