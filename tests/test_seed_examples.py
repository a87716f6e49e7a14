"""The reported bugs of ``examples/seeds`` (jit on methods, a pytree with a static field, a plain
class as a static argument) rewritten with jaxtypes give the correct results at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import jax.numpy as jnp
from tests.source_modules import import_path

SEEDS = Path(__file__).resolve().parent.parent / "examples" / "seeds"


def load(name: str) -> ModuleType:
    return import_path(SEEDS / f"{name}.py")


def test_jitted_methods_see_the_replaced_instance() -> None:
    static_result, pytree_result = load("seed000_jaxtypes").run()
    assert float(static_result) == 3.0  # mul was replaced by False
    assert float(pytree_result) == 6.0


def test_pytree_static_field_new_arrays_do_not_recompile_a_new_static_value_does() -> None:
    seed = load("seed002_jaxtypes")
    first, _ = seed.example(seed.Params(jnp.array([1.0, 2.0]), 2))
    second, _ = seed.example(seed.Params(jnp.array([3.0, 4.0]), 2))
    assert first.tolist() == [30.0, 51.0] and second.tolist() == [60.0, 81.0]
    assert len(seed.example.compiles) == 1
    seed.example(seed.Params(jnp.array([1.0, 2.0]), 1))
    assert len(seed.example.compiles) == 2


def test_plain_vehicle_rewritten_prints_the_new_number_of_wheels() -> None:
    done = subprocess.run(
        [sys.executable, str(SEEDS / "seed003_jaxtypes.py")], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["2", "4"]
