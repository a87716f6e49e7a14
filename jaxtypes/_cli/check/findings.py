"""Diagnostics as data, and which of them ``jaxtypes check`` reports.

A diagnostic is one line of mypy's JSON output (``--output json``), whose fields are mypy's
documented, stable format; columns are made 1-based here so every output format agrees. mypy
folds the ``note:`` lines under an error into its ``hint``; a plugin finding's ``why:`` and
``fix:`` notes are taken out of it again (``Message.notes``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from itertools import groupby
from operator import attrgetter
from typing import NamedTuple

from jaxtypes._vocabulary.internal_errors import INTERNAL_ERROR as PLUGIN_INTERNAL_ERROR
from jaxtypes._vocabulary.rules import ALL_RULES, FIX, RULES_BY_CODE, WHY
from jaxtypes._vocabulary.settings import Settings

PLUGIN_CODES: frozenset[str] = frozenset(rule.code for rule in ALL_RULES)


class Finding(NamedTuple):
    """One diagnostic: where (1-based line and column, end inclusive), its code, its headline
    (``message``), why it matters and the fix where the plugin gave them, and mypy's other notes."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str
    hint: str | None
    severity: str
    why: str | None = None
    fix: str | None = None

    def explanation(self) -> list[str]:
        """The lines under the headline: ``why: ...`` and ``fix: ...``, then mypy's own notes."""
        lines = [f"{WHY}{self.why}"] if self.why else []
        lines += [f"{FIX}{self.fix}"] if self.fix else []
        return lines + [f"note: {note}" for note in (self.hint or "").splitlines()]

    @property
    def from_plugin(self) -> bool:
        return self.code in PLUGIN_CODES

    @property
    def is_plugin_internal_error(self) -> bool:
        return self.message.startswith(PLUGIN_INTERNAL_ERROR)


def parse(line: str) -> Finding:
    """The finding in one line of mypy's JSON output (a line that is not JSON kept as its message)."""
    try:
        data = json.loads(line)
    except ValueError:
        return Finding("mypy", 1, 1, 1, 1, "", line, None, "error")
    notes = (data["hint"] or "").splitlines()
    why = [note.removeprefix(WHY) for note in notes if note.startswith(WHY)]
    fix = [note.removeprefix(FIX) for note in notes if note.startswith(FIX)]
    others = [note for note in notes if not note.startswith((WHY, FIX))]
    return Finding(
        path=data["file"],
        line=data["line"],
        column=data["column"] + 1,
        end_line=data["end_line"],
        end_column=max(data["end_column"], data["column"] + 1),
        code=data["code"] or "",
        message=data["message"],
        hint="\n".join(others) or None,
        severity=data["severity"],
        why=why[0] if why else None,
        fix=fix[0] if fix else None,
    )


def with_notes_mypy_dropped(findings: list[Finding]) -> list[Finding]:
    """One file's findings, each plugin finding with its why and fix. mypy prints a note at most
    once a line, so a finding after another on its line whose note said the same has none: its why
    is its rule's, its fix the one an earlier finding of its code on that line gave (else its
    rule's)."""
    done: list[Finding] = []
    for finding in findings:
        if finding.from_plugin and (finding.why is None or finding.fix is None):
            rule = RULES_BY_CODE[finding.code]
            earlier = [f.fix for f in done if (f.line, f.code) == (finding.line, finding.code) and f.fix]
            finding = finding._replace(why=finding.why or rule.why, fix=finding.fix or next(iter(earlier), rule.fix))
        done.append(finding)
    return done


def parse_output(lines: Iterable[str]) -> list[Finding]:
    """The findings in lines of mypy's JSON output, file by file with the notes mypy dropped."""
    parsed = [parse(line) for line in lines]
    return [
        found for _, of_file in groupby(parsed, attrgetter("path")) for found in with_notes_mypy_dropped(list(of_file))
    ]


class Selection(NamedTuple):
    """Which codes to report: the plugin's (or every code with ``everything``, ``--all``), then
    only those in ``only`` when it is not empty, and none of those in ``ignore``."""

    everything: bool
    only: frozenset[str]
    ignore: frozenset[str]

    @classmethod
    def configured(
        cls, settings: Settings, *, only: frozenset[str] | None = None, ignore: frozenset[str] | None = None
    ) -> Selection:
        """The project's ``select`` and ``ignore`` settings, each unless given (a command line's)."""
        return cls(
            everything=False,
            only=frozenset(settings.select) if only is None else only,
            ignore=frozenset(settings.ignore) if ignore is None else ignore,
        )

    def wants(self, code: str) -> bool:
        chosen = self.everything or code in PLUGIN_CODES
        return chosen and (not self.only or code in self.only) and code not in self.ignore


def select(findings: Iterable[Finding], selection: Selection) -> list[Finding]:
    """The findings to report, in file and line order."""
    chosen = [finding for finding in findings if selection.wants(finding.code)]
    return sorted(chosen, key=lambda f: (f.path, f.line, f.column, f.code, f.message))


def count_by_code(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings each code has, codes in alphabetical order."""
    return dict(sorted(Counter(finding.code for finding in findings).items()))


class Report(NamedTuple):
    """The findings to show, how many source files were checked, how many errors were hidden.

    With a baseline, ``findings`` are the new ones, ``baselined`` counts those the baseline
    holds, and ``fixed`` the baseline's entries this run judged and no longer found; without
    one, ``baselined`` is None.
    """

    findings: list[Finding]
    files_checked: int
    hidden: int
    baselined: int | None = None
    fixed: int = 0
