"""Static/Dynamic markers: readable at run time, and misuse is an error rather than ignored."""

from __future__ import annotations

import typing
from typing import Optional

import pytest

import jaxtypes as jt
from jaxtypes import Dynamic, Static
from jaxtypes._classes.markers import read_marker

StaticInt = Static[int]


class Annotated_:
    plain: int
    static: Static[int]
    aliased: StaticInt
    qualified: jt.Dynamic[float]
    nested: Optional[Static[int]]
    both: Dynamic[Static[int]]


HINTS = typing.get_type_hints(Annotated_, include_extras=True)


@pytest.mark.parametrize(
    ("name", "kind", "inner"),
    [("plain", None, int), ("static", "static", int), ("aliased", "static", int), ("qualified", "dynamic", float)],
)
def test_markers_are_read_from_future_annotations_and_aliases(name: str, kind: str | None, inner: type) -> None:
    assert read_marker(HINTS[name], f"Annotated_.{name}") == (kind, inner)


def test_a_marker_nested_in_another_type_is_an_error() -> None:
    with pytest.raises(jt.MarkerError, match=r"Annotated_.nested has Static\[...\] nested inside") as info:
        read_marker(HINTS["nested"], "Annotated_.nested")
    assert info.value.code == "marker-misuse"
    assert "Static[Optional[int]]" in str(info.value)


def test_both_markers_on_one_annotation_is_an_error() -> None:
    with pytest.raises(jt.MarkerError, match="both Static") as info:
        read_marker(HINTS["both"], "Annotated_.both")
    assert info.value.code == "marker-misuse"


def test_type_checkers_see_the_plain_type() -> None:
    assert typing.get_type_hints(Annotated_)["static"] is int
