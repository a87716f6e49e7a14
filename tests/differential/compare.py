"""Comparing one unit's runtime verdict with the plugin's: disagreements and unverified findings.

The runtime checks elements in order and, inside a class, the class itself before its fields
in order, and stops at the first error. So every plugin finding *before* the runtime's error
(or anywhere, if the runtime raised nothing) must be absent, the runtime's error must be among
the plugin's findings, word for word, and the plugin's findings after it are unverified.
"""

from __future__ import annotations

from typing import NamedTuple

from tests.differential.divergences import Case
from tests.differential.modules import ClassSpec, Unit
from tests.differential.verdicts import Finding


class Comparison(NamedTuple):
    disagreements: list[Case]
    unverified: list[Finding]


def compare(unit: Unit, runtime: Finding | None, runtime_said: str, plugin: dict[Finding, set[str]]) -> Comparison:
    """Split the two verdicts on ``unit`` into disagreements and what the runtime never reached;
    ``runtime_said`` is the runtime's message, and ``plugin`` maps each of the plugin's findings
    to its messages."""
    disagreements = []
    unverified = []
    if runtime is not None and runtime not in plugin:
        disagreements.append(Case(unit, "runtime", runtime))
    elif runtime is not None and runtime_said not in plugin[runtime]:
        disagreements.append(Case(unit, "both", runtime, runtime_said, tuple(sorted(plugin[runtime]))))
    for finding in sorted(plugin):
        if runtime is None or _order(unit, finding) < _order(unit, runtime):
            disagreements.append(Case(unit, "plugin", finding))
        elif finding != runtime:
            unverified.append(finding)
    return Comparison(disagreements, unverified)


def _order(unit: Unit, finding: Finding) -> tuple[int, int]:
    """Where the runtime checks a finding: element, then the class before its fields in order."""
    element = unit.elements[finding.element]
    names = [name for name, _ in element.fields] if isinstance(element, ClassSpec) else []
    return finding.element, names.index(finding.target) if finding.target in names else -1
