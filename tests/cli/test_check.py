"""``jaxtypes check`` end to end: real mypy, real plugin, in a subprocess."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jaxtypes._vocabulary.rules import ALL_RULES, STATIC_DYNAMIC_CHILD, STATIC_UNHASHABLE, Rule
from check_runner import FIXTURES, PROJECT, REPO, Check

WEIGHTS_MESSAGE = STATIC_DYNAMIC_CHILD.message("Config.weights", "is typed jax.Array, an array type")
WEIGHTS = "buggy.py:10:5: static-dynamic-child Config.weights is typed jax.Array, an array type"
WEIGHTS_WHY = (
    "jit hashes static arguments and compares pytree metadata with == to find compiled code, and an array is "
    "neither hashable nor comparable by value (a tracer fails, a shaped array's == is elementwise and has no "
    "truth value, a concrete array pins one buffer into the compiled code)"
)
WEIGHTS_FIX = (
    "move it into a @jaxtypes.pytree_dataclass data field or pass it as an ordinary argument, and keep only "
    "hashable settings static"
)
LAYERS_MESSAGE = STATIC_UNHASHABLE.message(
    "Config.layers", "is typed list[int], which is unhashable", "use a tuple instead of a list"
)
LAYERS = "buggy.py:11:5: static-unhashable " + LAYERS_MESSAGE.headline
BUGGY_SUMMARY = "Found 2 findings in 1 file (1 source file checked): static-dynamic-child 1, static-unhashable 1"


def headlines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"^\S+\.py:\d+:\d+: ", line)]


def test_text_output_shows_each_finding_with_its_source_line_and_a_caret(check: Check) -> None:
    result = check("buggy.py")
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        f"{WEIGHTS}\n"
        " 10 |     weights: jax.Array\n"
        "    |     ^~~~~~~\n"
        f"    = why: {WEIGHTS_WHY}\n"
        f"    = fix: {WEIGHTS_FIX}\n"
        "\n"
        f"{LAYERS}\n"
        " 11 |     layers: list[int]\n"
        "    |     ^~~~~~\n"
        f"    = why: {LAYERS_MESSAGE.why}\n"
        "    = fix: use a tuple instead of a list\n"
        "\n"
        f"{BUGGY_SUMMARY}\n"
    )


def test_examples_report_exactly_the_known_bugs_and_nothing_in_the_fixed_version(check: Check) -> None:
    result = check("examples/config_bugs.py", "examples/config_fixed.py", cwd=REPO)
    assert result.returncode == 1, result.stderr
    assert [" ".join(line.split(" ", 2)[:2]) for line in headlines(result.stdout)] == [
        "examples/config_bugs.py:27:5: static-dynamic-child",
        "examples/config_bugs.py:28:5: static-unhashable",
        "examples/config_bugs.py:32:2: static-not-frozen",
        "examples/config_bugs.py:40:5: static-identity-hash",
        "examples/config_bugs.py:41:5: marker-misuse",
        "examples/config_bugs.py:50:47: static-bound-method",
        "examples/config_bugs.py:54:28: static-identity-hash",
    ]
    assert (
        "examples/config_bugs.py:40:5: static-identity-hash State.vehicle is typed Vehicle, which hashes by identity\n"
        in result.stdout
    )
    assert result.stdout.splitlines()[-1].startswith(
        "Found 7 findings in 1 file (2 source files checked): marker-misuse 1, static-bound-method 1, "
        "static-dynamic-child 1, static-identity-hash 2, static-not-frozen 1, static-unhashable 1"
    )


def test_a_tree_with_only_ordinary_mypy_errors_passes_and_prints_only_the_summary(check: Check) -> None:
    result = check("messy.py")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "No jit-safety findings in 1 source file; 6 other mypy errors hidden (--all shows them)\n"


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "workers"])
def test_a_project_without_mypy_configuration_is_checked_with_the_plugin(
    check: Check, tmp_path: Path, workers: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # mypy cannot follow an editable install's import hook; it reads PYTHONPATH.
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    (tmp_path / "buggy.py").write_text((PROJECT / "buggy.py").read_text())
    result = check(*workers, "buggy.py", cwd=tmp_path, cache=tmp_path / "cache")
    assert result.returncode == 1, result.stdout + result.stderr
    assert headlines(result.stdout) == [WEIGHTS, LAYERS]
    assert result.stderr == ""  # a cold run, but standard error is a pipe: no progress


def test_all_shows_mypy_errors_too(check: Check) -> None:
    result = check("--all", "messy.py")
    assert result.returncode == 1
    assert "messy.py:18:14: assignment Incompatible types in assignment" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        "Found 6 findings in 1 file (1 source file checked): arg-type 2, assignment 2, name-defined 1, return-value 1"
    )


def test_the_projects_per_module_settings_apply(check: Check) -> None:
    # mypy.ini disables static-unhashable for the module `quiet` only.
    result = check("quiet.py", "buggy.py")
    assert result.returncode == 1
    assert [line.split(" ", 2)[:2] for line in headlines(result.stdout)] == [
        ["buggy.py:10:5:", "static-dynamic-child"],
        ["buggy.py:11:5:", "static-unhashable"],
    ]


def test_a_config_that_already_names_the_plugin_gets_each_finding_once(check: Check) -> None:
    result = check("--config-file", "with_plugin.ini", "buggy.py")
    assert result.returncode == 1
    assert headlines(result.stdout) == [WEIGHTS, LAYERS]


def test_select_and_ignore(check: Check) -> None:
    selected = check("--select", "static-unhashable", "buggy.py")
    ignored = check("--ignore", "static-unhashable,static-dynamic-child", "buggy.py")
    assert (selected.returncode, headlines(selected.stdout)) == (1, [LAYERS])
    assert (ignored.returncode, ignored.stdout) == (0, "No jit-safety findings in 1 source file\n")


def test_an_unknown_code_is_a_usage_error(check: Check) -> None:
    result = check("--select", "static-unhashabel", "buggy.py")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("jaxtypes check: error: unknown code static-unhashabel; the codes are: ")
    assert len(result.stderr.splitlines()) == 1


def test_json_output_follows_the_documented_schema(check: Check) -> None:
    result = check("--format", "json", "buggy.py", "messy.py")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document == {
        "version": 2,
        "files_checked": 2,
        "hidden_mypy_errors": 6,
        "baselined": None,
        "baseline_fixed": 0,
        "counts": {"static-dynamic-child": 1, "static-unhashable": 1},
        "findings": [
            {
                "path": "buggy.py",
                "line": 10,
                "column": 5,
                "end_line": 10,
                "end_column": 11,
                "code": "static-dynamic-child",
                "severity": "error",
                "message": WEIGHTS.split(" ", 2)[2],
                "why": WEIGHTS_WHY,
                "fix": WEIGHTS_FIX,
                "hint": None,
                "plugin": True,
            },
            {
                "path": "buggy.py",
                "line": 11,
                "column": 5,
                "end_line": 11,
                "end_column": 10,
                "code": "static-unhashable",
                "severity": "error",
                "message": LAYERS.split(" ", 2)[2],
                "why": LAYERS_MESSAGE.why,
                "fix": LAYERS_MESSAGE.fix,
                "hint": None,
                "plugin": True,
            },
        ],
    }
    schema = (REPO / "docs" / "check.md").read_text()
    for key in [*document, *document["findings"][0]]:
        assert f"`{key}`" in schema


def test_github_format_writes_workflow_annotations(check: Check) -> None:
    result = check("--format", "github", "buggy.py")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "::error file=buggy.py,line=10,col=5,endLine=10,endColumn=11,title=static-dynamic-child::"
        + "%0A".join([WEIGHTS.split(" ", 2)[2], *WEIGHTS_MESSAGE.notes()]),
        "::error file=buggy.py,line=11,col=5,endLine=11,endColumn=10,title=static-unhashable::"
        + "%0A".join([LAYERS.split(" ", 2)[2], *LAYERS_MESSAGE.notes()]),
        BUGGY_SUMMARY,
    ]


def _cache_rows(cache: Path) -> dict[str, float]:
    """Every entry of mypy's sqlite cache and when it was written."""
    rows: dict[str, float] = {}
    for database in cache.glob("*/cache.*.db"):
        with sqlite3.connect(database) as connection:
            rows.update(connection.execute("SELECT path, mtime FROM files2"))
    return rows


def test_a_second_run_on_an_unchanged_tree_reuses_the_cache(check: Check, shared_cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "warm.py"
    source.write_text((PROJECT / "buggy.py").read_text())
    args = ("--config-file", str(PROJECT / "mypy.ini"), "warm.py")
    first = check(*args, cwd=tmp_path)
    written = _cache_rows(shared_cache)
    assert any(path.startswith("warm.") for path in written)

    second = check(*args, cwd=tmp_path)
    assert (second.returncode, second.stdout) == (first.returncode, first.stdout) == (1, second.stdout)
    reread = _cache_rows(shared_cache)
    # Neither the module nor jax was checked again (jaxtypes itself may be edited meanwhile).
    assert {path: reread[path] for path in written if path.startswith(("warm.", "jax/"))} == {
        path: written[path] for path in written if path.startswith(("warm.", "jax/"))
    }

    source.write_text(source.read_text().replace("list[int]", "tuple[int, ...]"))
    edited = check(*args, cwd=tmp_path)
    assert edited.stdout.splitlines()[-1].endswith(": static-dynamic-child 1")
    rewritten = _cache_rows(shared_cache)
    assert all(rewritten[path] != written[path] for path in written if path.startswith("warm."))


def test_parallel_workers_report_the_same_findings(check: Check, tmp_path: Path) -> None:
    sequential = check("buggy.py")
    parallel = check("-n", "2", "buggy.py", cache=tmp_path)  # -n changes options: its own cache
    assert (parallel.returncode, parallel.stdout) == (1, sequential.stdout), parallel.stderr


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_explain_prints_the_reference_entry_of_every_code(check: Check, rule: Rule) -> None:
    reference = (REPO / "docs" / "error-codes.md").read_text()
    entry = reference.split(f"\n## `{rule.code}`\n", 1)[1].split("\n## ", 1)[0]
    result = check("--explain", rule.code)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"## `{rule.code}`\n{entry}".strip() + "\n"


def test_a_missing_path_is_a_one_line_usage_error(check: Check) -> None:
    result = check("buggy.py", "no_such_dir/")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "jaxtypes check: error: no_such_dir/: no such file or directory\n"


def test_a_syntax_error_stops_the_check_with_status_2(check: Check, tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    result = check("broken.py", cwd=tmp_path, cache=tmp_path / "cache")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("broken.py:1:")
    assert result.stderr.endswith("jaxtypes check: error: mypy stopped before checking everything\n")


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_mypy_crash_is_reported_with_its_file_and_status_2(check: Check, tmp_path: Path, workers: str) -> None:
    result = check("-n", workers, "calls_boom.py", cwd=FIXTURES / "crash", cache=tmp_path)
    output = result.stdout + result.stderr  # an -n worker writes to the terminal directly
    assert result.returncode == 2
    assert "calls_boom.py:8: error: INTERNAL ERROR" in output
    assert "the crash plugin crashed on purpose" in output
    assert "findings" not in result.stdout
    assert result.stderr.endswith("jaxtypes check: error: mypy crashed (see above)\n")


def test_the_console_script_is_the_same_command() -> None:
    script = Path(sys.executable).with_name("jaxtypes")
    result = subprocess.run([str(script), "check", "--explain", "jit-device"], capture_output=True, text=True)
    assert (result.returncode, result.stdout.splitlines()[0]) == (0, "## `jit-device`")


def test_explain_without_the_docs_folder_prints_the_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed jaxtypes has no docs/: --explain falls back to the rule's own words."""
    from jaxtypes._cli.check import explain as module
    from jaxtypes._vocabulary.rules import STATIC_UNHASHABLE

    monkeypatch.setattr(module, "ERROR_CODES_DOC", tmp_path / "missing.md")
    text = module.explain("static-unhashable")
    assert text.startswith("## `static-unhashable`\n")
    assert f"**Why:** {STATIC_UNHASHABLE.why}." in text and f"**Fix:** {STATIC_UNHASHABLE.fix}." in text
