"""The benchmark of real jit bugs: `jaxtypes check` over code transcribed from public bug reports.

Every file in ``cases/`` is one report: a docstring with ``Source:`` (the report's address),
``Library:`` (whose static declaration holds the value: plain-jax, flax, equinox,
jax-dataclass-registration, jax_dataclasses), then ``Reported:`` (a bug case: what went wrong as
the reporter saw it) or ``Correct:`` (a must-stay-silent case: why the code is right), and
optionally ``Transcribed:`` (what was added to make it run alone), ``Hard:`` (what a checker must
see to catch it) and ``Run: no (why)``. A bug case marks each line where a finding is due with a
trailing ``# expect: <code>`` comment; a silent case has no mark.

One `jaxtypes check --format json` run over the folder, with the cases' own mypy configuration,
is matched to the marks by file, line and code: a mark with such a finding is caught, any other
finding is a false positive. Unless ``--no-run``, each case also runs, under the jit sanitizer
(``jaxtypes run``), to record whether the bug shows at run time (an exception) or goes unnoticed
(stale results, recompilation), and what the sanitizer reports in the case's own file: the
dynamic verdict, printed beside the static one, with their union.

    python benchmarks/jit_bugs/run.py [--no-run] [--cache-dir DIR] [--cases-table]
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tokenize
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = HERE / "cases"
CONFIG = HERE / "mypy.ini"
sys.path.insert(0, str(REPO))

from jaxtypes._vocabulary.rules import RULES_BY_CODE  # noqa: E402  (after the checkout is importable)

LIBRARIES = ("plain-jax", "flax", "equinox", "jax-dataclass-registration", "jax_dataclasses")
RUN_TIMEOUT_S = 120
_HEADER = re.compile(r"^(Source|Library|Reported|Correct|Transcribed|Hard|Run): (.*)$")
_MARK = re.compile(r"#\s*expect:\s*(.+?)\s*$")
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception))(?::|$)", re.MULTILINE)
_MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


class Mark(NamedTuple):
    """A finding due at ``line`` with ``code``."""

    line: int
    code: str


class Case(NamedTuple):
    """One transcribed report: its header fields and its marks."""

    path: Path
    header: dict[str, str]
    marks: tuple[Mark, ...]

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def library(self) -> str:
        return self.header.get("Library", "")

    @property
    def silent(self) -> bool:
        return "Correct" in self.header

    @property
    def runs(self) -> bool:
        return not self.header.get("Run", "").startswith("no")


class Finding(NamedTuple):
    """A plugin finding in a case file."""

    name: str
    line: int
    code: str


class Score(NamedTuple):
    """How one case fared: its marks caught and missed, and the findings no mark asked for."""

    case: Case
    caught: tuple[Mark, ...]
    missed: tuple[Mark, ...]
    false_positives: tuple[Finding, ...]


def load_cases(folder: Path = CASES) -> list[Case]:
    """Every case in ``folder``, sorted by file name."""
    return [_load(path) for path in sorted(folder.glob("*.py"))]


def _load(path: Path) -> Case:
    source = path.read_text()
    docstring = ast.get_docstring(ast.parse(source)) or ""
    header = {match[1]: match[2] for line in docstring.splitlines() if (match := _HEADER.match(line))}
    marks = [
        Mark(token.start[0], code.strip())
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT and (match := _MARK.search(token.string))
        for code in match[1].split(",")
    ]
    return Case(path, header, tuple(marks))


def problems(case: Case) -> list[str]:
    """What makes ``case`` unusable: a missing source link, an unknown library or rule code, or
    marks that contradict its kind."""
    found = []
    if not case.header.get("Source", "").startswith("https://"):
        found.append("no Source: https://... line")
    if case.library not in LIBRARIES:
        found.append(f"Library: {case.library!r} is not one of {', '.join(LIBRARIES)}")
    if ("Reported" in case.header) == case.silent:
        found.append("needs exactly one of Reported: (a bug) and Correct: (must stay silent)")
    found += [
        f"line {mark.line}: unknown rule code {mark.code!r}" for mark in case.marks if mark.code not in RULES_BY_CODE
    ]
    if case.silent and case.marks:
        found.append("a silent case has # expect: marks")
    if not case.silent and not case.marks:
        found.append("a bug case has no # expect: mark")
    return found


def check(folder: Path = CASES, cache_dir: Path | None = None) -> list[Finding]:
    """The plugin's findings in one `jaxtypes check` run over ``folder``."""
    command = [sys.executable, "-m", "jaxtypes", "check", "--format", "json", "--config-file", str(CONFIG)]
    command += ["--cache-dir", str(cache_dir)] if cache_dir else []
    done = subprocess.run([*command, str(folder)], cwd=REPO, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"jaxtypes check exited with {done.returncode}:\n{done.stdout}{done.stderr}")
    report = json.loads(done.stdout)
    return [
        Finding(Path(item["path"]).name, item["line"], item["code"])
        for item in report["findings"]
        if item["plugin"] and item["severity"] == "error"
    ]


def score(cases: Iterable[Case], findings: Iterable[Finding]) -> list[Score]:
    """Each case's marks matched to ``findings`` by file, line and code."""
    by_file: dict[str, set[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.name, set()).add(finding)
    scores = []
    for case in cases:
        found = by_file.get(case.name, set())
        wanted = {Finding(case.name, mark.line, mark.code) for mark in case.marks}
        caught = tuple(mark for mark in case.marks if Finding(case.name, *mark) in found)
        missed = tuple(mark for mark in case.marks if Finding(case.name, *mark) not in found)
        scores.append(Score(case, caught, missed, tuple(sorted(found - wanted))))
    return scores


class Outcome(NamedTuple):
    """What running a case under the sanitizer showed: ``fails: <exception>``, ``runs`` (exit
    status 0, or only the sanitizer's findings: a bug of this kind goes unnoticed), ``timeout``,
    ``needs <module>`` or ``not run``; and the sanitizer's findings in the case's file (line, code)."""

    result: str
    sanitized: tuple[tuple[int, str], ...] = ()

    def __str__(self) -> str:
        found = ", ".join(f"{code} at {line}" for line, code in self.sanitized)
        return f"{self.result}; sanitizer: {found or 'nothing'}" if self.result != "not run" else self.result


def run_case(case: Case, timeout: float = RUN_TIMEOUT_S) -> Outcome:
    """Run the case as a script under ``jaxtypes run`` (its findings as JSON in a file)."""
    if not case.runs:
        return Outcome("not run")
    # A fixed hash seed: some of these bugs fail or not depending on the hash of a value.
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "findings.json"
        command = [sys.executable, "-m", "jaxtypes", "run", "--format", "json", "--output", str(report)]
        try:
            done = subprocess.run(
                [*command, case.path.name],
                cwd=case.path.parent,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return Outcome("timeout")
        findings = json.loads(report.read_text())["findings"] if report.exists() else []
    sanitized = tuple(sorted({(item["line"], item["code"]) for item in findings if item["path"] == case.path.name}))
    if done.returncode == 0 or (done.returncode == 1 and findings and "Traceback" not in done.stderr):
        return Outcome("runs", sanitized)
    if missing := _MISSING_MODULE.search(done.stderr):
        return Outcome(f"needs {missing[1]}", sanitized)
    raised = _raised(done.stderr)
    result = f"fails: {raised.rsplit('.', 1)[-1]}" if raised else f"fails: exit status {done.returncode}"
    return Outcome(result, sanitized)


def _raised(stderr: str) -> str | None:
    """The exception the last traceback in ``stderr`` ends with: the first line after its header
    that names one, not a line of its message that quotes another (jax's ``ValueError: Non-hashable
    static arguments ...`` quotes the ``TypeError`` hashing raised)."""
    last = stderr.rfind("Traceback (most recent call last):")
    found = _EXCEPTION.search(stderr, last if last >= 0 else 0)
    return found[1] if found else None


def summary_table(scores: Sequence[Score], outcomes: dict[str, Outcome] | None = None) -> str:
    """The Markdown table of recall and false positives per library and overall; with the cases
    run, how many bug cases fail when run, how many the sanitizer reports (and on how many silent
    cases it reports anything), and how many the checker or the sanitizer catches."""
    columns = [
        "library",
        "bug cases",
        "cases caught",
        "marks",
        "marks caught",
        "recall",
        "silent cases",
        "false positives",
    ]
    if outcomes is not None:
        columns += [
            "bug cases failing when run",
            "silently wrong when run, reported by the sanitizer",
            "sanitizer findings on silent cases",
            "bug cases caught by either",
        ]
    rows = [_row(library, [s for s in scores if s.case.library == library], outcomes) for library in LIBRARIES]
    return _markdown(columns, [*rows, _row("**all**", list(scores), outcomes)])


def _row(label: str, scores: list[Score], outcomes: dict[str, Outcome] | None) -> list[str]:
    bugs = [s for s in scores if not s.case.silent]
    marks = sum(len(s.case.marks) for s in bugs)
    caught = sum(len(s.caught) for s in bugs)
    recall = f"{100 * caught / marks:.0f}%" if marks else "-"
    row = [label, str(len(bugs)), str(sum(not s.missed for s in bugs)), str(marks), str(caught), recall]
    row += [str(sum(s.case.silent for s in scores)), str(sum(len(s.false_positives) for s in scores))]
    if outcomes is not None:
        ran = [outcomes[s.case.name] for s in bugs if outcomes[s.case.name].result != "not run"]
        quiet = [outcome for outcome in ran if outcome.result == "runs"]
        silent = [outcomes[s.case.name] for s in scores if s.case.silent]
        either = [s for s in bugs if not s.missed or outcomes[s.case.name].sanitized]
        row.append(f"{sum(outcome.result.startswith('fails') for outcome in ran)} of {len(ran)}")
        row.append(f"{sum(bool(outcome.sanitized) for outcome in quiet)} of {len(quiet)}")
        row.append(str(sum(len(outcome.sanitized) for outcome in silent)))
        row.append(f"{len(either)} of {len(bugs)}")
    return row


def misses_and_false_positives(scores: Sequence[Score]) -> str:
    """The missed marks (with what makes each hard) and the false positives, file and line."""
    lines = ["Missed:"]
    for s in scores:
        hard = s.case.header.get("Hard")
        lines += [
            f"- `cases/{s.case.name}:{mark.line}` {mark.code}" + (f": {hard}" if hard else "") for mark in s.missed
        ]
    lines += ["", "False positives:"]
    lines += [f"- `cases/{f.name}:{f.line}` {f.code}" for s in scores for f in s.false_positives]
    return "\n".join(lines)


def cases_table(cases: Sequence[Case], outcomes: dict[str, Outcome] | None = None) -> str:
    """Every case as a Markdown table row: file, library, source, the codes it expects."""
    columns = ["case", "library", "source", "expected"] + (["when run"] if outcomes is not None else [])
    rows = []
    for case in cases:
        codes = ", ".join(sorted({mark.code for mark in case.marks})) or "silent"
        source = case.header.get("Source", "").partition(" ")[0]
        rows.append(
            [f"`{case.name}`", case.library, source, codes]
            + ([str(outcomes[case.name])] if outcomes is not None else [])
        )
    return _markdown(columns, rows)


def _markdown(columns: list[str], rows: list[list[str]]) -> str:
    lines = [columns, ["---"] * len(columns), *rows]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-run", action="store_true", help="only type-check the cases, do not run them")
    parser.add_argument("--cache-dir", type=Path, help="mypy cache (default: the configuration's)")
    parser.add_argument("--cases-table", action="store_true", help="print only the table of cases (for the README)")
    options = parser.parse_args()
    cases = load_cases()
    if options.cases_table:
        print(cases_table(cases))
        return 0
    broken = {case.name: found for case in cases if (found := problems(case))}
    for name, found in broken.items():
        print(f"{name}: {'; '.join(found)}", file=sys.stderr)
    if broken:
        return 2
    scores = score(cases, check(cache_dir=options.cache_dir))
    outcomes = None if options.no_run else {case.name: run_case(case) for case in cases}
    print(summary_table(scores, outcomes))
    print()
    print(misses_and_false_positives(scores))
    if outcomes is not None:
        print()
        print("Cases:")
        print(cases_table(cases, outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
