"""The baseline: adopt the linter on a codebase with findings, fail only on new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from check_runner import PROJECT, Check, project_ini
from jaxtypes._cli.check.baseline import Entry, compare, fingerprint
from jaxtypes._cli.check.findings import Finding
from jaxtypes._vocabulary.rules import STATIC_UNHASHABLE

BUGGY = (PROJECT / "buggy.py").read_text()
NEW_BUG = "\n\n@static_dataclass\nclass Later:\n    tags: set[str]\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the buggy module, checked with the fixture project's options (and its cache)."""
    (tmp_path / "mypy.ini").write_text(project_ini())
    (tmp_path / "adopted.py").write_text(BUGGY)
    return tmp_path


def summary(stdout: str) -> str:
    return stdout.splitlines()[-1]


def recorded(baseline: Path) -> list[tuple[str, str]]:
    return [(item["path"], item["code"]) for item in json.loads(baseline.read_text())["findings"]]


def test_the_baseline_round_trip(check: Check, project: Path) -> None:
    source, baseline = project / "adopted.py", project / "baseline.json"

    written = check("--write-baseline", "baseline.json", "adopted.py", cwd=project)
    assert (written.returncode, written.stderr) == (0, "jaxtypes check: wrote baseline.json (2 findings)\n")
    assert summary(written.stdout) == "No new jit-safety findings in 1 source file; 2 baselined findings remain"
    assert recorded(baseline) == [("adopted.py", "static-dynamic-child"), ("adopted.py", "static-unhashable")]

    # Lines added and edited above the recorded findings, and a new bug below them.
    source.write_text(
        '"""Two jit bugs in one static config, and a later one."""\n\n# Reviewed: see the baseline.\n'
        + BUGGY.split("\n", 1)[1].replace("import jax\n", "import jax  # arrays\nimport math\n")
        + NEW_BUG
    )
    edited = check("--baseline", "baseline.json", "adopted.py", cwd=project)
    assert edited.returncode == 1, edited.stderr
    assert [line for line in edited.stdout.splitlines() if line.startswith("adopted.py:")] == [
        "adopted.py:19:5: static-unhashable "
        + STATIC_UNHASHABLE.message(
            "Later.tags", "is typed set[str], which is unhashable", "use a frozenset instead of a set"
        ).headline
    ]
    assert summary(edited.stdout) == (
        "Found 1 new finding in 1 file (1 source file checked): static-unhashable 1; 2 baselined findings remain"
    )

    # A baselined finding fixed: the summary says so, and rewriting the baseline drops it.
    source.write_text(source.read_text().replace("layers: list[int]", "layers: tuple[int, ...]"))
    fixed = check("--baseline", "baseline.json", "adopted.py", cwd=project)
    assert summary(fixed.stdout) == (
        "Found 1 new finding in 1 file (1 source file checked): static-unhashable 1; "
        "1 baselined finding remains, 1 fixed (--write-baseline drops it)"
    )
    document = json.loads(check("--format", "json", "--baseline", "baseline.json", "adopted.py", cwd=project).stdout)
    lines = [finding["line"] for finding in document["findings"]]
    assert (lines, document["baselined"], document["baseline_fixed"]) == ([19], 1, 1)
    rewritten = check("--write-baseline", "baseline.json", "adopted.py", cwd=project)
    assert rewritten.stderr == "jaxtypes check: wrote baseline.json (2 findings, 1 fixed dropped)\n"
    assert recorded(baseline) == [("adopted.py", "static-dynamic-child"), ("adopted.py", "static-unhashable")]
    assert "Later.tags" in json.loads(baseline.read_text())["findings"][1]["message"]

    clean = check("--baseline", "baseline.json", "adopted.py", cwd=project)
    assert (clean.returncode, summary(clean.stdout)) == (
        0,
        "No new jit-safety findings in 1 source file; 2 baselined findings remain",
    )


def test_a_configured_baseline_applies_until_no_baseline(check: Check, project: Path) -> None:
    (project / "mypy.ini").write_text(project_ini("baseline = ci/baseline.json"))
    (project / "ci").mkdir()
    missing = check("adopted.py", cwd=project)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        "jaxtypes check: error: ci/baseline.json: no such baseline (write one with --write-baseline ci/baseline.json)\n"
    )
    assert check("--write-baseline", "ci/baseline.json", "adopted.py", cwd=project).returncode == 0
    assert recorded(project / "ci" / "baseline.json")[0] == ("../adopted.py", "static-dynamic-child")
    configured = check("adopted.py", cwd=project)
    everything = check("--no-baseline", "adopted.py", cwd=project)
    assert (configured.returncode, summary(configured.stdout)) == (
        0,
        "No new jit-safety findings in 1 source file; 2 baselined findings remain",
    )
    assert (everything.returncode, summary(everything.stdout)) == (
        1,
        "Found 2 findings in 1 file (1 source file checked): static-dynamic-child 1, static-unhashable 1",
    )


def test_a_run_on_some_files_or_codes_keeps_the_other_entries(check: Check, project: Path) -> None:
    (project / "other.py").write_text(BUGGY)
    check("--write-baseline", "baseline.json", "adopted.py", "other.py", cwd=project)
    (project / "adopted.py").write_text(BUGGY.replace("list[int]", "tuple[int, ...]"))

    one_code = check("--select", "static-dynamic-child", "--baseline", "baseline.json", "adopted.py", cwd=project)
    assert summary(one_code.stdout).endswith("; 1 baselined finding remains")
    one_file = check("--write-baseline", "baseline.json", "adopted.py", cwd=project)
    assert one_file.stderr == "jaxtypes check: wrote baseline.json (1 findings, 1 fixed dropped)\n"
    assert recorded(project / "baseline.json") == [
        ("adopted.py", "static-dynamic-child"),
        ("other.py", "static-dynamic-child"),
        ("other.py", "static-unhashable"),
    ]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("[]", "is not a jaxtypes baseline (list indices must be integers or slices, not str)"),
        ('{"version": 2, "findings": []}', "is not a jaxtypes baseline (version 2, this jaxtypes reads version 1)"),
        ('{"version": 1, "findings": [{"path": "a.py"}]}', "is not a jaxtypes baseline (an entry must have the"),
        ("{", "cannot read the baseline: Expecting property name enclosed in double quotes"),
    ],
)
def test_a_malformed_baseline_is_an_error_before_mypy_runs(
    check: Check, project: Path, content: str, error: str
) -> None:
    (project / "baseline.json").write_text(content)
    result = check("--baseline", "baseline.json", "adopted.py", cwd=project)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"jaxtypes check: error: baseline.json{':' if error[0] == 'c' else ''} {error}")


def test_baseline_and_write_baseline_exclude_each_other(check: Check) -> None:
    result = check("--baseline", "a.json", "--write-baseline", "b.json", "buggy.py")
    assert result.returncode == 2
    assert "argument --write-baseline: not allowed with argument --baseline" in result.stderr


# The fingerprint and the matching, on their own.


def finding(path: Path, line: int, code: str = "static-unhashable") -> Finding:
    return Finding(str(path), line, 5, line, 10, code, "message", None, "error")


def test_the_fingerprint_holds_the_line_and_its_enclosing_blocks_not_the_line_number(tmp_path: Path) -> None:
    first, second, third = tmp_path / "first.py", tmp_path / "second.py", tmp_path / "third.py"
    first.write_text("class A:\n    x: list[int]\n")
    second.write_text('import os\n\n\nclass   A:\n  """Doc."""\n  y: int\n# note\n\n  x:  list[int]\n  z: int\n')
    third.write_text("class B:\n    x: list[int]\n")
    assert fingerprint(finding(first, 2)) == fingerprint(finding(second, 9))
    assert fingerprint(finding(third, 2)) != fingerprint(finding(first, 2))


def test_identical_findings_need_as_many_entries(tmp_path: Path) -> None:
    source = tmp_path / "twice.py"
    source.write_text("class A:\n    x: list[int]\n    x: list[int]\n")
    one, two = finding(source, 2), finding(source, 3)
    assert fingerprint(one) == fingerprint(two)
    entries = [Entry("twice.py", "static-unhashable", fingerprint(one), "message")]
    comparison = compare(entries, [one, two], tmp_path, judged=lambda _entry: True)
    assert (comparison.new, comparison.baselined, comparison.fixed) == ([two], 1, 0)
