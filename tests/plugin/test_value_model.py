"""Verdicts that follow how values of a type behave, on code shaped like the wrong verdicts found
on real codebases: classes that are pytrees by any means (named tuples, another library's pytree
dataclass), classes another library makes frozen, the interpreter's own function type, the bound
``self`` of ``super().method(...)``, a static ``self`` reported only with evidence that it goes
wrong (arrays it holds are no such evidence: compiled in as constants, they are right) (the stricter verdict is the opt-in ``static-self-identity-hash``), and equinox modules,
which hash over their fields, judged by what their fields hold (given to ``jax.jit``, or static).

Checked in process, and as one project in every mode: cold, warm, after an edit that adds the
evidence, ``-n 2`` and the daemon.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.plugin.mypy_runner import BIN, check_in_process, environment, expected, run_dmypy, run_mypy, write_config

SHAPES = """\
import functools
import types
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc
from flax import struct
from jax_dataclasses import pytree_dataclass


class State(NamedTuple):
    x: jax.Array

    @jax.jit
    def step(self) -> "State":
        return State(self.x + 1)


@jdc.pytree_dataclass
class Params:
    w: jax.Array

    @jax.jit
    def apply(self, x: jax.Array) -> jax.Array:
        return self.w * x


@pytree_dataclass
class Inner:
    n: int


@struct.dataclass
class Holder:
    inner: Inner = struct.field(pytree_node=False)
    fn: types.FunctionType = struct.field(pytree_node=False)


class Base:
    @functools.partial(jax.jit, static_argnums=(0, 2))
    def f(self, x: jax.Array, n: int) -> jax.Array:
        return x * n


class Child(Base):
    def f(self, x: jax.Array, n: int) -> jax.Array:
        return super().f(x, n)


class Model:
    def __init__(self, k: int) -> None:
        self.k = k

    @functools.partial(jax.jit, static_argnames=("self",))
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.k
{model_change}

class Counter:
    def __init__(self) -> None:
        self.n = 0

    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.n

    def bump(self) -> None:
        self.n += 1


class Scaled:
    def __init__(self, scale: jax.Array) -> None:
        self.scale = scale

    @functools.partial(jax.jit, static_argnums=0)
    def run(self, x: jax.Array) -> jax.Array:
        return x * self.scale


class Rebuilt:
    @functools.partial(jax.jit, static_argnums=0)  # E: static-identity-hash
    def run(self, x: jax.Array) -> jax.Array:
        return x


def loop(x: jax.Array) -> None:
    for _ in range(3):
        Rebuilt().run(x)


class Weights(eqx.Module):
    w: jax.Array

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.w * x


class Knobs(eqx.Module):
    n: int = 2

    def __call__(self, x: jax.Array) -> jax.Array:
        return x * self.n


weighted = jax.jit(Weights(jnp.ones(2)))  # E: static-dynamic-child
knobbed = jax.jit(Knobs())


@functools.partial(jax.jit, static_argnums=1)  # E: static-dynamic-child
def scaled(x: jax.Array, module: Weights) -> jax.Array:
    return module(x)


@functools.partial(jax.jit, static_argnums=1)
def counted(x: jax.Array, module: Knobs) -> jax.Array:
    return module(x)
"""

UNCHANGED = SHAPES.format(model_change="")
MUTATED = SHAPES.format(model_change="\n    def grow(self) -> None:\n        self.k += 1\n")
MODEL_RUN = UNCHANGED.splitlines().index('    @functools.partial(jax.jit, static_argnames=("self",))') + 1
BASE_F = UNCHANGED.splitlines().index("    @functools.partial(jax.jit, static_argnums=(0, 2))") + 1


def findings(diagnostics: list) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in diagnostics if d.code in RULES_BY_CODE)


def test_each_verdict_follows_how_the_values_behave(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    assert findings(check_in_process(path, cache_dir)) == expected(UNCHANGED)


def test_the_evidence_names_what_makes_a_static_self_go_wrong(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    headlines = {d.line: d.message.splitlines()[0] for d in check_in_process(path, cache_dir)}
    counter, rebuilt = [line for line, code in expected(UNCHANGED) if code == "static-identity-hash"]
    assert headlines[counter].endswith("which hashes by identity, and Counter.bump assigns self.n")
    loop_line = UNCHANGED.splitlines().index("        Rebuilt().run(x)") + 1
    assert headlines[rebuilt].endswith(
        f"and a Rebuilt is built inside a loop at line {loop_line}, so every copy compiles again"
    )


def test_the_stricter_verdict_is_opt_in(tmp_path: Path, cache_dir: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(UNCHANGED)
    strict = check_in_process(path, cache_dir, extra_config="enable_error_code = static-self-identity-hash\n")
    opted = [(line, code) for line, code in findings(strict) if code == "static-self-identity-hash"]
    scaled = UNCHANGED.splitlines().index("class Scaled:") + 5
    assert opted == [(line, "static-self-identity-hash") for line in (BASE_F, MODEL_RUN, scaled)]
    assert sorted(set(findings(strict)) - set(opted)) == expected(UNCHANGED)


def test_jaxtypes_check_select_turns_the_opt_in_code_on(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    write_config(tmp_path)
    command = [str(BIN / "jaxtypes"), "check", "--quiet", "shapes.py"]
    default = subprocess.run(command, cwd=tmp_path, env=environment(), capture_output=True, text=True, timeout=300)
    selected = subprocess.run(
        [*command, "--select", "static-self-identity-hash"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "static-self-identity-hash" not in default.stdout
    assert "checked): static-self-identity-hash 3;" in selected.stdout.splitlines()[-1], selected.stdout


def test_every_mode_gives_the_same_findings_and_follows_the_evidence(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    write_config(tmp_path)
    cold = run_mypy(tmp_path, "shapes.py")
    assert findings(cold) == expected(UNCHANGED)
    assert run_mypy(tmp_path, "shapes.py") == cold
    time.sleep(1.1)
    (tmp_path / "shapes.py").write_text(MUTATED)
    mutated = run_mypy(tmp_path, "shapes.py")
    assert (MODEL_RUN, "static-identity-hash") in findings(mutated)
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", "shapes.py") == mutated
    time.sleep(1.1)
    (tmp_path / "shapes.py").write_text(UNCHANGED)
    assert run_mypy(tmp_path, "shapes.py") == cold
    status = tmp_path / "dmypy.json"
    try:
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == cold
        time.sleep(1.1)
        (tmp_path / "shapes.py").write_text(MUTATED)
        assert run_dmypy(tmp_path, status, "run", "--", "shapes.py") == mutated
    finally:
        run_dmypy(tmp_path, status, "stop")
