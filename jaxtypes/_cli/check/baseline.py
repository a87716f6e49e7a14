"""A baseline: the findings a project has accepted for now, so that only new ones fail the check.

An entry is matched by file, code and a fingerprint of the offending line's text and of its
neighbourhood, the lines that open the blocks around it (``class Config:``, ``def step(...):``),
whitespace collapsed; never by line number. Adding, removing or editing other lines, above or
below, keeps a finding baselined, and so does re-indenting its block; changing its line or renaming its
class or function brings it back. The neighbourhood tells apart the same line in two classes;
identical findings in one block count: two of them need two entries. Paths are stored relative to
the baseline's folder, so the file works from any working folder. The format is documented in
docs/check.md.
"""

from __future__ import annotations

import hashlib
import json
import linecache
import os
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from jaxtypes._cli.check import UsageError
from jaxtypes._cli.check.findings import Finding

BASELINE_VERSION = 1


class Entry(NamedTuple):
    """One accepted finding; ``message`` is for people reading the file, not for matching."""

    path: str
    code: str
    fingerprint: str
    message: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.path, self.code, self.fingerprint)


Judged = Callable[[Entry], bool]
"""Whether a run judged an entry (see ``judged_by``)."""


class Comparison(NamedTuple):
    """The findings not in the baseline, and how many of its entries were found or are gone."""

    new: list[Finding]
    baselined: int
    fixed: int


def fingerprint(finding: Finding) -> str:
    """A hash of the finding's line and of the lines opening its enclosing blocks."""
    linecache.checkcache(finding.path)  # a long-running server sees the file as saved last
    lines = linecache.getlines(finding.path)
    index = finding.line - 1
    text = lines[index] if 0 <= index < len(lines) else ""
    parts, indent = [_words(text)], _indent(text)
    for line in reversed(lines[: max(index, 0)]):
        if indent == 0:
            break
        if _words(line) and not line.lstrip().startswith("#") and _indent(line) < indent:
            parts.append(_words(line))
            indent = _indent(line)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _words(line: str) -> str:
    return " ".join(line.split())


def _indent(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


def relative_path(path: str, folder: Path) -> str:
    """``path`` (relative to the working folder, or absolute) relative to ``folder``, with ``/``."""
    return Path(os.path.relpath(os.path.abspath(path), folder)).as_posix()


def entry(finding: Finding, folder: Path) -> Entry:
    return Entry(relative_path(finding.path, folder), finding.code, fingerprint(finding), finding.message)


def read_baseline(path: Path) -> list[Entry]:
    """The entries of the baseline at ``path``; a ``UsageError`` when it is missing or malformed."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such baseline (write one with --write-baseline {path})") from None
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: cannot read the baseline: {error}") from None
    try:
        if document["version"] != BASELINE_VERSION:
            raise ValueError(f"version {document['version']!r}, this jaxtypes reads version {BASELINE_VERSION}")
        return [Entry(**_strings(item, Entry._fields)) for item in document["findings"]]
    except (KeyError, TypeError, ValueError) as error:
        raise UsageError(f"{path} is not a jaxtypes baseline ({error}); write it with --write-baseline") from None


def write_baseline(path: Path, entries: Iterable[Entry]) -> None:
    """Write ``entries``, sorted so that a rewritten baseline differs only where findings did."""
    document = {
        "version": BASELINE_VERSION,
        "findings": [item._asdict() for item in sorted(entries)],
    }
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise UsageError(f"{path}: cannot write the baseline: {error}") from None


def judged_by(folder: Path, files: Iterable[str], wants: Callable[[str], bool]) -> Judged:
    """Whether a run judged an entry: the run checked its file or found something there (``files``),
    and reports its code (``wants``).

    Entries for other files and codes (a run on some files only, ``--select``) are neither fixed
    nor dropped when the baseline is written.
    """
    paths = {relative_path(path, folder) for path in files}
    return lambda item: item.path in paths and wants(item.code)


def compare(entries: list[Entry], findings: list[Finding], folder: Path, judged: Judged) -> Comparison:
    """Which ``findings`` are new; how many entries match a finding, and how many of the entries
    this run ``judged`` match none: fixed since the baseline was written."""
    remaining = Counter(item.key for item in entries)
    judged_keys = {item.key for item in entries if judged(item)}
    new: list[Finding] = []
    for finding in findings:
        key = entry(finding, folder).key
        if remaining[key]:
            remaining[key] -= 1
        else:
            new.append(finding)
    fixed = sum(count for key, count in remaining.items() if key in judged_keys)
    return Comparison(new, len(findings) - len(new), fixed)


def updated(entries: list[Entry], findings: list[Finding], folder: Path, judged: Judged) -> list[Entry]:
    """The baseline recording ``findings``, with the entries the run did not judge kept."""
    return [item for item in entries if not judged(item)] + [entry(finding, folder) for finding in findings]


def _strings(item: Any, fields: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(item, dict) or set(item) != set(fields) or not all(isinstance(v, str) for v in item.values()):
        raise ValueError(f"an entry must have the string fields {', '.join(fields)}: {item!r}")
    return item
