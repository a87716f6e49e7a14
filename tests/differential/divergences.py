"""Every legitimate difference between the runtime's and the plugin's verdicts, in one table.

Comparing a unit gives *disagreements*: a finding only one side has, where both looked. Each must
match one kind below (its predicate), or the test fails: a plugin or runtime bug. A finding the
runtime never reached (after its first error) is not a disagreement but *unverified*, counted
under ``AFTER_FIRST_ERROR``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tests.differential.modules import ClassSpec, Unit, references
from tests.differential.verdicts import Finding


class Case(NamedTuple):
    """A disagreement: ``finding`` is reported by ``side`` ("plugin" or "runtime") only."""

    unit: Unit
    side: str
    finding: Finding


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
    if spec is None or case.side != "plugin" or not case.finding.target:
        return False
    later = {e.name for e in case.unit.elements[case.finding.element + 1:] if isinstance(e, ClassSpec)}
    return bool(references(dict(spec.fields)[case.finding.target]) & later)


def _construction_only(case: Case) -> bool:
    spec = _class(case)
    return case.side == "plugin" and spec is not None and spec.kind == "subclass" and case.finding.code == "static-subclass"


DIVERGENCES: tuple[Divergence, ...] = (
    Divergence(
        "forward-reference",
        "A field names a class defined later in the module. The runtime checks annotations when "
        "the class is created, so the name is not defined yet and gets the benefit of the doubt; "
        "mypy sees the whole module.",
        _forward_reference,
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
