"""Classes made at run time: type(...), make_dataclass, decorators called as functions."""
import dataclasses
from typing import Any

from jaxtypes import pytree_dataclass, static_dataclass

Made = type("Made", (), {"__annotations__": {"x": list[int]}})
StaticMade = static_dataclass(type("StaticMade", (), {"__annotations__": {"x": int}}))
Record = dataclasses.make_dataclass("Record", [("items", list[int])], frozen=True)
StaticRecord = static_dataclass(dataclasses.make_dataclass("StaticRecord", [("items", list[int])]))
PytreeRecord = pytree_dataclass(Record)


def factory(name: str) -> Any:
    return static_dataclass(type(name, (), {}))


@static_dataclass
class HoldsMade:
    made: Made  # type: ignore[valid-type]
    record: Record  # type: ignore[valid-type]
