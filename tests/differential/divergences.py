"""Every legitimate difference between the runtime's and the plugin's verdicts, in one table.

Comparing a unit gives *disagreements*: a finding only one side has, where both looked, or a
finding both have in different words. Each must match one kind below (its predicate), or the test
fails: a plugin or runtime bug. A finding the runtime never reached (after its first error) is
not a disagreement but *unverified*, counted under ``AFTER_FIRST_ERROR``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tests.differential.modules import ClassSpec, JitSpec, Type, Unit, references
from tests.differential.verdicts import Finding


class Case(NamedTuple):
    """A disagreement: ``finding`` is reported by ``side`` ("plugin" or "runtime") only, or by
    "both" sides, the runtime saying ``runtime_said`` and the plugin ``plugin_said``."""

    unit: Unit
    side: str
    finding: Finding
    runtime_said: str = ""
    plugin_said: tuple[str, ...] = ()


class Divergence(NamedTuple):
    name: str
    doc: str
    applies: Callable[[Case], bool]


AFTER_FIRST_ERROR = "after-first-error"


def _class(case: Case) -> ClassSpec | None:
    element = case.unit.elements[case.finding.element]
    return element if isinstance(element, ClassSpec) else None


def _forward_reference(case: Case) -> bool:
    spec = _class(case)
    if spec is None or not case.finding.target:
        return False
    later = {e.name for e in case.unit.elements[case.finding.element + 1 :] if isinstance(e, ClassSpec)}
    return bool(references(dict(spec.fields)[case.finding.target]) & later)


def _judged_types(case: Case) -> list[Type]:
    """The declared types the finding's element judges: the field's, or every parameter's."""
    element = case.unit.elements[case.finding.element]
    if isinstance(element, JitSpec):
        return [typ for _, typ in element.params]
    if isinstance(element, ClassSpec) and case.finding.target:
        return [dict(element.fields)[case.finding.target]]
    return []


def _frozen_dataclass_fields(case: Case) -> bool:
    classes = case.unit.classes()
    named = set().union(*(references(typ) for typ in _judged_types(case)))
    return any(classes[name].kind == "stdlib_frozen" and classes[name].fields for name in named if name in classes)


def _construction_only(case: Case) -> bool:
    spec = _class(case)
    return (
        case.side == "plugin"
        and spec is not None
        and spec.kind == "subclass"
        and case.finding.code == "static-subclass"
    )


DIVERGENCES: tuple[Divergence, ...] = (
    Divergence(
        "forward-reference",
        "A field names a class defined later in the module. The runtime checks annotations when "
        "the class is created, so the name is not defined yet and gets the benefit of the doubt; "
        "mypy sees the whole module. Each side reports one problem a field, so where that class "
        "is the plugin's, the runtime reports the next one (a runtime-only finding, or the same "
        "code in other words).",
        _forward_reference,
    ),
    Divergence(
        "frozen-dataclass-fields",
        "A static position is typed as a frozen stdlib dataclass. The plugin judges it by its "
        "fields' declared types too; the runtime's annotation check judges the class alone (its "
        "value check walks the fields of each instance built). Each side reports one problem a "
        "field or parameter, so they may report different members of a union or tuple (or the "
        "same code for different members, in other words).",
        _frozen_dataclass_fields,
    ),
    Divergence(
        "construction-only",
        "An undecorated subclass of a static class is refused when an instance is built (its "
        "constructor is the static one); no instance is built here. The plugin reports the class.",
        _construction_only,
    ),
)


def classify(case: Case) -> str | None:
    """The name of the divergence kind that explains ``case``, or None (a bug)."""
    return next((kind.name for kind in DIVERGENCES if kind.applies(case)), None)
