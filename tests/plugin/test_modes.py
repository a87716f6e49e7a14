"""The plugin gives identical diagnostics in every way mypy runs: cold, warm after edits,
parallel workers, the daemon and the legacy parser.

A small project in a temp dir: ``model.py`` defines a static class, ``solver.py`` nests it in
other jaxtypes classes and calls its constructor, ``variants.py`` subclasses it. Editing
``model.py`` to add a ``Dynamic`` field must surface the error where ``solver.py`` nests the
class, and reverting must clear it.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.plugin.mypy_runner import Diagnostic, run_dmypy, run_mypy, write_config

MODEL = """\
from jaxtypes import Dynamic, static_dataclass

@static_dataclass
class Model:
    size: int
"""

DYNAMIC_FIELD = "    weights: Dynamic[int] = 0\n"

SOLVER = """\
from typing import Callable
from jaxtypes import Static, pytree_dataclass, static_dataclass
from model import Model

@static_dataclass
class Solver:
    model: Model
    step: Callable[[], int]

@pytree_dataclass
class State:
    model: Static[Model]

class Owner:
    def run(self) -> int:
        return 0

solver = Solver(Model(1), Owner().run)
"""

VARIANTS = """\
from model import Model

class Bigger(Model):
    pass
"""

FILES = ["solver.py", "model.py", "variants.py"]

CLEAN = [
    ("solver.py", 18, "static-bound-method"),
    ("variants.py", 3, "static-subclass"),
]
BROKEN = sorted(
    [*CLEAN, ("model.py", 6, "marker-misuse"), ("solver.py", 7, "marker-misuse"), ("solver.py", 12, "marker-misuse")]
)


def codes(diagnostics: list[Diagnostic]) -> list[tuple[str, int, str]]:
    return [(d.file, d.line, d.code) for d in diagnostics]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "solver.py").write_text(SOLVER)
    (tmp_path / "variants.py").write_text(VARIANTS)
    write_config(tmp_path)
    return tmp_path


def set_model(project: Path, broken: bool) -> None:
    """Rewrite ``model.py`` with or without the dynamic field, with a new mtime."""
    time.sleep(1.1)
    (project / "model.py").write_text(MODEL + (DYNAMIC_FIELD if broken else ""))


def test_cold_then_warm_after_editing_dependency_and_caller(project: Path) -> None:
    cold = run_mypy(project, *FILES)
    assert codes(cold) == CLEAN
    set_model(project, broken=True)
    broken = run_mypy(project, *FILES)
    assert codes(broken) == BROKEN
    time.sleep(1.1)
    (project / "solver.py").write_text(SOLVER + "other = Model(2)\n")
    assert run_mypy(project, *FILES) == broken
    set_model(project, broken=False)
    assert run_mypy(project, *FILES) == cold


@pytest.mark.parametrize("flags", [["-n", "2"], ["--no-native-parser"]], ids=["parallel", "legacy-parser"])
def test_other_modes_match_plain_mypy(project: Path, flags: list[str]) -> None:
    set_model(project, broken=True)
    reference = run_mypy(project, "--no-incremental", *FILES)
    assert codes(reference) == BROKEN
    assert run_mypy(project, *flags, *FILES) == reference
    assert run_mypy(project, *flags, *FILES) == reference


def test_daemon_follows_edits(project: Path) -> None:
    status = project / "dmypy.json"
    try:
        clean = run_dmypy(project, status, "run", "--", *FILES)
        assert codes(clean) == CLEAN
        set_model(project, broken=True)
        assert codes(run_dmypy(project, status, "run", "--", *FILES)) == BROKEN
        set_model(project, broken=False)
        assert run_dmypy(project, status, "run", "--", *FILES) == clean
    finally:
        run_dmypy(project, status, "stop")


# Plain jax.jit: the static positions travel in the jitted function's type, so a call in another
# module is checked from the cache, in workers and in the daemon, and follows edits of both.

VEHICLE = """\
class Vehicle:
    def __init__(self, num_wheels: int) -> None:
        self.num_wheels = num_wheels
"""

BY_VALUE = """\
    def __hash__(self) -> int:
        return hash(self.num_wheels)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vehicle) and other.num_wheels == self.num_wheels
"""

JITTED = """\
import jax

@jax.jit(static_argnums={argnums})
def f(x):
    return x.num_wheels
"""

CALLER = """\
from jitted import f
from vehicle import Vehicle

f(Vehicle(2))
"""

JIT_FILES = ["caller.py", "jitted.py", "vehicle.py"]
STALE = [("caller.py", 4, "static-identity-hash")]


@pytest.fixture
def jit_project(tmp_path: Path) -> Path:
    (tmp_path / "vehicle.py").write_text(VEHICLE)
    (tmp_path / "jitted.py").write_text(JITTED.format(argnums=0))
    (tmp_path / "caller.py").write_text(CALLER)
    write_config(tmp_path)
    return tmp_path


def edit(project: Path, name: str, text: str) -> None:
    """Rewrite ``name`` with a new mtime."""
    time.sleep(1.1)
    (project / name).write_text(text)


def test_plain_jit_call_across_modules_follows_edits(jit_project: Path) -> None:
    assert codes(run_mypy(jit_project, *JIT_FILES)) == STALE
    assert codes(run_mypy(jit_project, *JIT_FILES)) == STALE
    edit(jit_project, "vehicle.py", VEHICLE + BY_VALUE)
    assert codes(run_mypy(jit_project, *JIT_FILES)) == []
    edit(jit_project, "vehicle.py", VEHICLE)
    assert codes(run_mypy(jit_project, *JIT_FILES)) == STALE
    edit(jit_project, "jitted.py", JITTED.format(argnums="()"))
    assert codes(run_mypy(jit_project, *JIT_FILES)) == []
    assert codes(run_mypy(jit_project, "-n", "2", "--no-incremental", *JIT_FILES)) == []
    edit(jit_project, "jitted.py", JITTED.format(argnums=0))
    assert codes(run_mypy(jit_project, "-n", "2", *JIT_FILES)) == STALE


def test_plain_jit_call_across_modules_in_the_daemon(jit_project: Path) -> None:
    status = jit_project / "dmypy.json"
    try:
        assert codes(run_dmypy(jit_project, status, "run", "--", *JIT_FILES)) == STALE
        edit(jit_project, "vehicle.py", VEHICLE + BY_VALUE)
        assert codes(run_dmypy(jit_project, status, "run", "--", *JIT_FILES)) == []
        edit(jit_project, "vehicle.py", VEHICLE)
        edit(jit_project, "jitted.py", JITTED.format(argnums="()"))
        assert codes(run_dmypy(jit_project, status, "run", "--", *JIT_FILES)) == []
        edit(jit_project, "jitted.py", JITTED.format(argnums=0))
        assert codes(run_dmypy(jit_project, status, "run", "--", *JIT_FILES)) == STALE
    finally:
        run_dmypy(jit_project, status, "stop")
