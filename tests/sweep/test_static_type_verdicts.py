"""Verdicts checked against how the classes users pass as static values really hash and compare.

For each class of ``cases.CASES`` two equal values are built the normal way, and the truth is
measured: they are the same object, they are equal with equal hashes, or neither. A safe class
(the first two) must be accepted by the runtime's value check, by its annotation check and by the
plugin; any other must be refused by all three. Where a verdict differs, the difference must be
listed, with its reason, in the table of ``docs/static-values.md``, and that page's table of all
verdicts must be what this test measures.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import NamedTuple

import pytest

from jaxtypes._classes.declared_types import check_static_type
from jaxtypes._classes.static_values import ProblemFound, static_key
from tests.plugin.mypy_runner import REPO, check_in_process
from tests.source_modules import import_path
from tests.sweep.cases import CASES, PRELUDE, Case

PAGE = REPO / "docs" / "static-values.md"
ACCEPTED = "accepted"
SIDES = ("runtime value", "runtime type", "plugin")
HEADER = (
    "| type | built as | two equal values are | runtime value | runtime type | plugin |\n"
    "| --- | --- | --- | --- | --- | --- |"
)


class Verdicts(NamedTuple):
    truth: str
    runtime_value: str
    runtime_type: str
    plugin: str

    def row(self, case: Case) -> str:
        cells = [f"`{case.annotation}`", f"`{case.build}`", *self]
        return "| " + " | ".join(cells) + " |"

    def differences(self) -> list[str]:
        """The sides whose verdict is not what the truth calls for."""
        safe = self.truth != "neither"
        found = (self.runtime_value, self.runtime_type, self.plugin)
        return [side for side, verdict in zip(SIDES, found) if (verdict == ACCEPTED) != safe]


def truth(first: object, second: object) -> str:
    if first is second:
        return "the same object"
    if first == second and hash(first) == hash(second):
        return "equal, equal hashes"
    return "neither"


def runtime_verdict(check: object, value: object) -> str:
    try:
        check(value)  # type: ignore[operator]
    except ProblemFound as found:
        return found.rule.code
    return ACCEPTED


@pytest.fixture(scope="module")
def prelude(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    path = tmp_path_factory.mktemp("sweep") / "sweep_types.py"
    path.write_text(PRELUDE)
    return import_path(path)


@pytest.fixture(scope="module")
def plugin_verdicts(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The plugin's verdict on each case: a static class with one field per case, checked once."""
    folder = tmp_path_factory.mktemp("sweep_plugin")
    header = PRELUDE + "\nimport jaxtypes\n\n\n@jaxtypes.static_dataclass\nclass Sweep:\n"
    first_line = header.count("\n") + 1
    fields = "".join(f"    f{index}: {case.annotation}\n" for index, case in enumerate(CASES))
    path = folder / "sweep_fields.py"
    path.write_text(header + fields)
    found = {d.line: d.code for d in check_in_process(path, folder / "cache")}
    return [found.get(first_line + index, ACCEPTED) for index in range(len(CASES))]


@pytest.fixture(scope="module")
def measured(prelude: ModuleType, plugin_verdicts: list[str]) -> list[Verdicts]:
    namespace = vars(prelude)
    results = []
    for case, plugin in zip(CASES, plugin_verdicts):
        first, second = eval(case.build, namespace), eval(case.build, namespace)
        annotation = eval(case.annotation, namespace)
        results.append(
            Verdicts(
                truth(first, second),
                runtime_verdict(static_key, first),
                runtime_verdict(check_static_type, annotation),
                plugin,
            )
        )
    return results


def listed_differences() -> dict[str, set[str]]:
    """The table of known differences on the page: annotation -> sides."""
    section = PAGE.read_text().split("## Where a verdict differs from the truth\n", 1)[1]
    listed: dict[str, set[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `(?P<annotation>[^`]+)` \| (?P<sides>[^|]+) \|", line)
        if match:
            listed[match["annotation"]] = {side.strip() for side in match["sides"].split(",")}
    return listed


def test_every_verdict_agrees_with_the_truth_or_is_listed(measured: list[Verdicts]) -> None:
    differing = {case.annotation: set(v.differences()) for case, v in zip(CASES, measured) if v.differences()}
    assert differing == listed_differences()


def test_the_page_shows_what_is_measured(measured: list[Verdicts]) -> None:
    rows = "\n".join([HEADER, *(verdicts.row(case) for case, verdicts in zip(CASES, measured))])
    table = PAGE.read_text().split("<!-- sweep -->\n", 2)[1]
    assert table.strip() == rows, f"docs/static-values.md should show:\n{rows}"


def test_both_kinds_of_safe_class_are_swept(measured: list[Verdicts]) -> None:
    truths = {verdicts.truth for verdicts in measured}
    assert truths == {"the same object", "equal, equal hashes", "neither"}
