"""Calls of functions ``eqx.filter_jit`` returns, which hold every leaf that is no array static:
a callable made afresh (a lambda, a local function, an equinox module holding one) in an
argument, made again and again (in a loop, in a function a loop calls or that the module's
top-level code calls from two places, through a jax transformation of it too), is reported at the
argument; made once, it is the opt-in twin, as it is in a function only other functions call
(they may all run while an outer jit traces, where it costs a trace, not a compilation); a
module-level function, an array or a number there stays silent. A callable the construction of
a class of the module makes afresh and stores (``self.norm = functools.partial(...)`` in
``__init__``, or in an attribute a method passes on: ``self.loss = wrap(loss)``) is reported
where it is made, each such place, naming the call. The filtered function may be
decorated (also ``eqx.filter_jit(donate=...)``), assigned, a method, defined inside another
function, or defined in another module; diffrax's ``diffeqsolve``, filtered in diffrax, is one.
An optimizer a factory of another module makes (a named tuple of functions, or a subclass of
one, as optax's are) is a bundle of functions made afresh: two equal ones meeting one call
compile twice.

Checked in process, with the opt-in codes turned on, and as one project in every mode: cold,
warm, after an edit that adds the evidence, ``-n 2`` and the daemon.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from jaxtypes._vocabulary.rules import OPT_IN_CODES, RULES_BY_CODE
from tests.plugin.mypy_runner import check_in_process, expected, run_dmypy, run_mypy, write_config

LIBRARY = """\
from typing import Callable, NamedTuple

import equinox as eqx
import jax


class Term(eqx.Module):
    fn: Callable


@eqx.filter_jit
def solve(term: Term, y: jax.Array) -> jax.Array:
    return term.fn(y)


@eqx.filter_jit(donate="none")
def solve_donated(term: Term, y: jax.Array) -> jax.Array:
    return term.fn(y)


def _apply(fn: Callable, y: jax.Array) -> jax.Array:
    return fn(y)


apply = eqx.filter_jit(_apply)


class Model(eqx.Module):
    w: jax.Array

    @eqx.filter_jit
    def run(self, fn: Callable, x: jax.Array) -> jax.Array:
        return fn(self.w * x)


class Transform(NamedTuple):
    init: Callable
    update: Callable


class TransformWithArgs(Transform):
    pass


def adam(rate: float) -> TransformWithArgs:
    return TransformWithArgs(lambda p: p, lambda g: g * rate)
"""

MAIN = """\
import functools
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp

from library import Model, Term, Transform, adam, apply, solve, solve_donated

y = jnp.ones(2)


def local_each_call(y: jax.Array) -> jax.Array:
    def f(v: jax.Array) -> jax.Array:
        return v

    return solve(Term(f), y)  # E: static-fresh-callable


for _ in range(3):
    local_each_call(y)


def lambda_per_call(v: jax.Array) -> jax.Array:
    return solve_donated(Term(lambda u: u * v), v).sum()  # E: static-fresh-callable


grad_f = jax.grad(lambda_per_call)
grad_f(y)
grad_f(y)


def once(y: jax.Array) -> jax.Array:
    return apply(lambda v: v, y)  # S: static-fresh-callable-strict


once(y){again}


def called_in_functions(y: jax.Array) -> jax.Array:
    return apply(lambda v: v, y)  # S: static-fresh-callable-strict


def under_an_outer_jit(y: jax.Array) -> jax.Array:
    return called_in_functions(y) + called_in_functions(y * 2)


def module_level(v: jax.Array) -> jax.Array:
    return v


def traced_fit(y: jax.Array, power: int) -> jax.Array:
    scaled = functools.partial(jnp.power, x2=power)  # made while the jit below traces: inlined there
    return apply(scaled, y)


traced_fit_jit = jax.jit(traced_fit, static_argnums=1)
for _ in range(3):
    traced_fit_jit(y, 2)


model = Model(jnp.ones(2))
for _ in range(3):
    solve(Term(module_level), y)
    apply(module_level, y)
    model.run(lambda v: v, y)  # E: static-fresh-callable
    model.run(module_level, y * 2)


class Normed(eqx.Module):
    norm: Callable

    def __init__(self, axis: int) -> None:
        self.norm = functools.partial(jnp.linalg.norm, axis=axis)  # E: static-fresh-callable

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.norm(x)


NORM = functools.partial(jnp.linalg.norm, axis=0)


class Cached(eqx.Module):
    norm: Callable

    def __init__(self) -> None:
        self.norm = NORM

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.norm(x)


def wrap(fn: Callable) -> Callable:
    def wrapped(x: jax.Array) -> jax.Array:
        return fn(x)

    return wrapped


class Adapter:
    def __init__(self, loss: Callable, scaled: bool) -> None:
        if scaled:
            self.loss = wrap(loss)  # E: static-fresh-callable
        else:
            self.loss = lambda x: loss(x) * 2  # S: static-fresh-callable-strict (the loop builds it scaled)

    def run(self, y: jax.Array) -> jax.Array:
        return apply(self.loss, y)


def train(y: jax.Array) -> jax.Array:
    @eqx.filter_jit  # S: jit-fresh-function-strict
    def step(transform: Transform, v: jax.Array) -> jax.Array:
        return transform.update(v)

    first = adam(0.1)
    step(first, y)  # E: static-fresh-callable
    second = adam(0.1)
    return step(second, y)  # E: static-fresh-callable


for _ in range(3):
    apply(Normed(0), y)
    apply(Cached(), y)
    Adapter(module_level, scaled=True).run(y)
"""

UNCHANGED = MAIN.format(again="")
CALLED_AGAIN = MAIN.format(again="\nonce(y)")


def marked(source: str, kind: str) -> list[tuple[int, str]]:
    """The ``# E:`` (default) or ``# S:`` (opt-in) marks of ``source``."""
    if kind == "S":
        return expected(source.replace("# S:", "# E:"))
    return expected(source.replace("# S:", "#"))


def findings(diagnostics: list) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in diagnostics if d.code in RULES_BY_CODE)


def project(tmp_path: Path, main: str) -> Path:
    (tmp_path / "library.py").write_text(LIBRARY)
    path = tmp_path / "main.py"
    path.write_text(main)
    return path


def test_a_fresh_callable_made_again_is_reported_at_the_argument(tmp_path: Path, cache_dir: Path) -> None:
    found = check_in_process(project(tmp_path, UNCHANGED), cache_dir)
    assert findings(found) == marked(UNCHANGED, "E")
    headlines = {d.line: d.message.splitlines()[0] for d in found}
    lines = UNCHANGED.splitlines()
    local = lines.index("    return solve(Term(f), y)  # E: static-fresh-callable") + 1
    assert headlines[local].startswith(
        "static argument 0 of this eqx.filter_jit call holds a Term whose fn is the local function"
    )
    grads = [number for number, line in enumerate(lines, 1) if line == "grad_f(y)"]
    per_call = lines.index("    return solve_donated(Term(lambda u: u * v), v).sum()  # E: static-fresh-callable") + 1
    assert f"by every call of lambda_per_call, which runs at lines {grads[0]} and {grads[1]}" in headlines[per_call]
    stored = (
        lines.index("        self.norm = functools.partial(jnp.linalg.norm, axis=axis)  # E: static-fresh-callable") + 1
    )
    call = lines.index("    apply(Normed(0), y)") + 1
    assert headlines[stored] == (
        f"static argument 0 of the eqx.filter_jit call at line {call} holds a Normed whose norm is a function made"
        f" by functools.partial, and it is made inside a loop at line {call}, so every copy compiles again"
    )


def test_made_once_it_is_the_opt_in_twin(tmp_path: Path, cache_dir: Path) -> None:
    codes = ", ".join(sorted(OPT_IN_CODES))
    found = check_in_process(project(tmp_path, UNCHANGED), cache_dir, extra_config=f"enable_error_code = {codes}\n")
    assert findings(found) == marked(UNCHANGED, "S")


def test_every_mode_gives_the_same_findings_and_follows_the_evidence(tmp_path: Path) -> None:
    project(tmp_path, UNCHANGED)
    write_config(tmp_path)
    cold = run_mypy(tmp_path, "main.py", "library.py")
    assert findings(cold) == marked(UNCHANGED, "E")
    assert run_mypy(tmp_path, "main.py", "library.py") == cold
    time.sleep(1.1)
    (tmp_path / "main.py").write_text(CALLED_AGAIN)  # once() now runs twice
    changed = run_mypy(tmp_path, "main.py", "library.py")
    once = CALLED_AGAIN.splitlines().index("    return apply(lambda v: v, y)  # S: static-fresh-callable-strict") + 1
    assert findings(changed) == sorted([*marked(CALLED_AGAIN, "E"), (once, "static-fresh-callable")])
    assert run_mypy(tmp_path, "-n", "2", "--no-incremental", "main.py", "library.py") == changed
    status = tmp_path / "dmypy.json"
    try:
        time.sleep(1.1)
        (tmp_path / "main.py").write_text(UNCHANGED)
        assert run_dmypy(tmp_path, status, "run", "--", "main.py", "library.py") == cold
        time.sleep(1.1)
        (tmp_path / "main.py").write_text(CALLED_AGAIN)
        assert run_dmypy(tmp_path, status, "run", "--", "main.py", "library.py") == changed
    finally:
        run_dmypy(tmp_path, status, "stop")


DIFFRAX = """\
import diffrax as dfx
import jax.numpy as jnp


def solve_ode(y0: float) -> object:
    def vector_field(t, x, args):
        return -x

    return dfx.diffeqsolve(
        dfx.ODETerm(vector_field),  # E: static-fresh-callable
        dfx.Tsit5(),
        t0=0.0,
        t1=1.0,
        dt0=0.1,
        y0=jnp.asarray(y0),
    ).ys


def vector_field(t, x, args):
    return -x


TERM = dfx.ODETerm(vector_field)
for y0 in (1.0, 2.0):
    solve_ode(y0)
    dfx.diffeqsolve(TERM, dfx.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=jnp.asarray(y0))
"""


def test_diffrax_diffeqsolve_is_filtered_in_diffrax(tmp_path: Path, cache_dir: Path) -> None:
    pytest.importorskip("diffrax")
    path = tmp_path / "solves.py"
    path.write_text(DIFFRAX)
    assert findings(check_in_process(path, cache_dir)) == expected(DIFFRAX)
