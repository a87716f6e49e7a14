"""Printing a report: text for people, JSON for tools, annotations for GitHub Actions, SARIF
for code scanning (:mod:`.sarif`).

The JSON schema is documented in docs/check.md; ``SCHEMA_VERSION`` changes only when a field
changes meaning or goes away.
"""

from __future__ import annotations

import json
import linecache
from collections.abc import Callable
from typing import TextIO

from jaxtypes._cli.check.findings import Finding, Report, count_by_code
from jaxtypes._cli.check.sarif import write_sarif

SCHEMA_VERSION = 2


def summary(report: Report) -> str:
    """One line: the counts per code, or that there is nothing to fix; what the baseline holds."""
    files = _plural(report.files_checked, "source file")
    new = "" if report.baselined is None else "new "
    notes = "".join(_notes(report))
    if not report.findings:
        return f"No {new}jit-safety findings in {files}{notes}"
    counts = ", ".join(f"{code} {count}" for code, count in count_by_code(report.findings).items())
    where = _plural(len({finding.path for finding in report.findings}), "file")
    return f"Found {_plural(len(report.findings), new + 'finding')} in {where} ({files} checked): {counts}{notes}"


def _notes(report: Report) -> list[str]:
    notes = []
    if report.baselined is not None:
        notes.append(f"; {_plural(report.baselined, 'baselined finding')} {_verb(report.baselined, 'remain')}")
    if report.fixed:
        them = "it" if report.fixed == 1 else "them"
        notes.append(f", {report.fixed} fixed (--write-baseline drops {them})")
    if report.hidden:
        notes.append(f"; {_plural(report.hidden, 'other mypy error')} hidden (--all shows them)")
    return notes


def headline(finding: Finding) -> str:
    """``path:line:col: CODE headline`` (``path:`` alone where mypy names no line, as for a module
    found twice; no code where mypy gives none)."""
    where = f"{finding.path}:{finding.line}:{finding.column}:" if finding.line > 0 else f"{finding.path}:"
    return " ".join(part for part in (where, finding.code, finding.message) if part)


def write_text(report: Report, out: TextIO) -> None:
    """The headline, the source line with a caret under it, why and the fix, then the summary."""
    for finding in report.findings:
        out.write(headline(finding) + "\n")
        source = linecache.getline(finding.path, finding.line).rstrip()
        gutter = " " * len(str(finding.line))
        if source:
            out.write(f" {finding.line} | {source}\n {gutter} | {_underline(finding, source)}\n")
        for line in finding.explanation():
            out.write(f" {gutter} = {line}\n")
        out.write("\n")
    out.write(summary(report) + "\n")


def write_json(report: Report, out: TextIO) -> None:
    """One JSON document (schema: docs/check.md)."""
    document = {
        "version": SCHEMA_VERSION,
        "files_checked": report.files_checked,
        "hidden_mypy_errors": report.hidden,
        "baselined": report.baselined,
        "baseline_fixed": report.fixed,
        "counts": count_by_code(report.findings),
        "findings": [
            {
                "path": finding.path,
                "line": finding.line,
                "column": finding.column,
                "end_line": finding.end_line,
                "end_column": finding.end_column,
                "code": finding.code,
                "severity": finding.severity,
                "message": finding.message,
                "why": finding.why,
                "fix": finding.fix,
                "hint": finding.hint,
                "plugin": finding.from_plugin,
            }
            for finding in report.findings
        ],
    }
    out.write(json.dumps(document, indent=2) + "\n")


def write_github(report: Report, out: TextIO) -> None:
    """GitHub Actions workflow commands, one annotation per finding, then the summary."""
    for finding in report.findings:
        level = "error" if finding.severity == "error" else "notice"
        properties = ",".join(
            f"{key}={_escape(str(value), property_value=True)}"
            for key, value in [
                ("file", finding.path),
                ("line", finding.line),
                ("col", finding.column),
                ("endLine", finding.end_line),
                ("endColumn", finding.end_column),
                ("title", finding.code),
            ]
        )
        out.write(f"::{level} {properties}::{_escape(chr(10).join([finding.message, *finding.explanation()]))}\n")
    out.write(summary(report) + "\n")


WRITERS: dict[str, Callable[[Report, TextIO], None]] = {
    "text": write_text,
    "json": write_json,
    "github": write_github,
    "sarif": write_sarif,
}


def _underline(finding: Finding, source: str) -> str:
    """A caret under the finding's first column and tildes to its end on the same line."""
    start = finding.column - 1
    end = finding.end_column if finding.end_line == finding.line else len(source)
    indent = "".join(char if char == "\t" else " " for char in source[:start])
    return indent + "^" + "~" * max(0, min(end, len(source)) - start - 1)


def _escape(text: str, *, property_value: bool = False) -> str:
    """Escape as GitHub's workflow-command syntax requires."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _verb(count: int, verb: str) -> str:
    return f"{verb}s" if count == 1 else verb
