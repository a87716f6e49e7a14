"""The agreement check's switch and call description, in one process (the test process)."""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Iterator

import jax
import jax.numpy as jnp
import pytest

import jaxtypes
from fingerprint_configs import Config, Solver
from jaxtypes import Static, StaticValueError
from jaxtypes._jit.agreement import AgreementCheck, _Setting
from jaxtypes._jit.fingerprint import differences


@pytest.fixture(autouse=True)
def process_setting() -> Iterator[None]:
    saved = (_Setting.enabled, _Setting.timeout_s)
    yield
    _Setting.enabled, _Setting.timeout_s = saved


@jaxtypes.pytree_dataclass
class State:
    x: jax.Array
    order: Static[int] = 1


def advance(state: State, config: Config, scale: Static[float] = 2.0) -> jax.Array:
    return state.x * scale + state.order


def test_in_a_single_process_job_the_check_is_on_and_costs_nothing() -> None:
    jaxtypes.check_static_agreement(timeout_s=1)
    jitted = jaxtypes.jit(advance, check_static_agreement=True)
    assert jitted(State(jnp.ones(2)), Config()).tolist() == [3.0, 3.0]
    assert len(jitted.compiles) == 1


def test_the_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout_s must be positive, got 0"):
        jaxtypes.check_static_agreement(timeout_s=0)


def describe_call(*args: object, **kwargs: object) -> list[object]:
    static = frozenset({"config", "scale"})
    return AgreementCheck(advance, inspect.signature(advance), static, True).describe_call(args, kwargs)


def test_a_call_is_described_by_its_static_arguments_and_pytree_static_fields() -> None:
    base = describe_call(State(jnp.ones(2)), Config())
    assert describe_call(State(jnp.zeros(2)), config=Config(), scale=2.0) == base
    other = describe_call(State(jnp.ones(2), order=2), Config(solver=Solver(tolerance=1.0)), 3.0)
    assert [d.path for d in differences(base, other)] == ["state.order", "config.solver.tolerance", "scale"]


def test_a_static_argument_hashed_by_identity_cannot_be_compared_across_processes() -> None:
    with pytest.raises(StaticValueError, match=r"advance argument scale holds an object, which hashes by identity"):
        describe_call(State(jnp.ones(2)), Config(), object())


def test_importing_jaxtypes_with_the_new_names_does_not_import_jax() -> None:
    code = (
        "import sys, jaxtypes; jaxtypes.static_fingerprint(1); jaxtypes.check_static_agreement(False); "
        "jaxtypes.StaticAgreementError; print('jax' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "False"
