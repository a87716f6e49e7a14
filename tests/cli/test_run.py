"""``jaxtypes run`` and the pytest plugin, as users start them: real processes, real jax."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

STALE = """\
import functools
import jax


class Calc:
    def __init__(self, mul):
        self.mul = mul

    @functools.partial(jax.jit, static_argnums=0)
    def calc(self, y):
        return y * 2 if self.mul else y


c = Calc(True)
print(float(c.calc(3.0)))
c.mul = False
print(float(c.calc(3.0)))
"""

CLEAN = """\
import jax

f = jax.jit(lambda x: x + 1)
print(float(f(1.0)), float(f(2.0)))
"""


def jaxtypes(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    return subprocess.run(
        [sys.executable, "-m", "jaxtypes", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_run_reports_a_stale_call_and_fails(tmp_path: Path) -> None:
    (tmp_path / "stale.py").write_text(STALE)
    result = jaxtypes("run", "stale.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout == "6.0\n6.0\n"  # the program's own output, unchanged
    assert result.stderr.startswith(
        "stale.py:17:1: jit-stale-static Calc.calc: static argument 'self' changed since jit compiled for it"
        " (self.mul: True -> False)\n"
    )
    assert "= note: jitted at: stale.py:9" in result.stderr


def test_run_writes_json_to_a_file_and_passes_arguments(tmp_path: Path) -> None:
    (tmp_path / "stale.py").write_text(STALE + "import sys\nprint(sys.argv[1:])\n")
    result = jaxtypes("run", "--format", "json", "--output", "out.json", "stale.py", "a", "--b", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.endswith("['a', '--b']\n")
    document = json.loads((tmp_path / "out.json").read_text())
    assert [(f["code"], f["line"]) for f in document["findings"]] == [("jit-stale-static", 17)]


def test_run_of_a_clean_module_exits_0(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text(CLEAN)
    result = jaxtypes("run", "-m", "clean", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "2.0 3.0\n"), result.stderr
    assert "No jit-safety findings" in result.stderr


def test_run_keeps_the_programs_own_failure(tmp_path: Path) -> None:
    (tmp_path / "fails.py").write_text(STALE + "raise SystemExit(3)\n")
    result = jaxtypes("run", "fails.py", cwd=tmp_path)
    assert result.returncode == 3
    assert "jit-stale-static" in result.stderr


SEEDS = Path(__file__).resolve().parents[2] / "examples" / "seeds"


@pytest.mark.parametrize("seed", ["seed000_static_self.py", "seed000_jit_bound_method.py", "seed003_vehicle.py"])
def test_each_silent_bug_of_the_seeds_is_reported_at_its_stale_call(seed: str, tmp_path: Path) -> None:
    """The seeds' programs as written, whose second call returns the first call's result."""
    source = (SEEDS / seed).read_text()
    (tmp_path / seed).write_text(source)
    result = jaxtypes("run", "--format", "json", "--output", "out.json", seed, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    stale_call = max(number for number, line in enumerate(source.splitlines(), 1) if line.startswith("print("))
    document = json.loads((tmp_path / "out.json").read_text())
    assert [(f["path"], f["code"], f["line"]) for f in document["findings"]] == [(seed, "jit-stale-static", stale_call)]


def test_run_strict_stops_at_the_stale_call(tmp_path: Path) -> None:
    (tmp_path / "stale.py").write_text(STALE)
    result = jaxtypes("run", "--strict", "stale.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == "6.0\n"
    assert "jaxtypes.StaleResultError: Calc.calc: static argument 'self' changed" in result.stderr


TESTS = """\
import jax
import jax.numpy as jnp
import pytest

SCALE = 2.0
scaled = jax.jit(lambda x: x * SCALE)


def test_stale_global():
    global SCALE
    scaled(1.0)
    SCALE = 3.0
    scaled(1.0)


def test_clean():
    f = jax.jit(lambda x: x * 2)
    assert float(f(2.0)) == float(f(2.0)) == 4.0


@pytest.mark.jaxtypes(max_compiles=1)
def test_budget():
    f = jax.jit(lambda x: x)
    for n in (1, 2):
        f(jnp.ones(n))
"""


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_jitted.py").write_text(TESTS)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_jitted.py", *args]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_the_pytest_plugin_fails_tests_with_findings_and_sums_up(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, "--jaxtypes-sanitize")
    assert result.returncode == 1
    assert "2 failed, 1 passed" in result.stdout
    assert (
        "test_jitted.py:13: <lambda>: global 'SCALE' changed since jit traced it (SCALE: 2.0 -> 3.0)" in result.stdout
    )
    assert "<lambda> compiled 2 times, over its budget of 1" in result.stdout
    assert "jaxtypes sanitizer" in result.stdout
    assert "findings: jit-compile-budget 1, jit-stale-global 1" in result.stdout


def test_the_pytest_plugin_is_off_unless_asked_or_configured(tmp_path: Path) -> None:
    assert run_pytest(tmp_path).returncode == 0
    (tmp_path / "pyproject.toml").write_text("[tool.jaxtypes]\nsanitize = true\n")
    assert "2 failed, 1 passed" in run_pytest(tmp_path).stdout
