"""``jaxtypes.static_fingerprint`` and the descriptions behind it: the same in every interpreter,
different on any one-field change, and able to say which field differs."""

from __future__ import annotations

import dataclasses
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jax.numpy as jnp
import pytest

import jaxtypes
from fingerprint_configs import Boundary, Config, Limits, Method, Solver, Transport, build, double
from jaxtypes import Static, StaticValueError
from tests.param_ids import spelled
from jaxtypes._jit.fingerprint import describe, describe_metadata, differences

HERE = Path(__file__).resolve().parent
PRINT_FINGERPRINT = """
import jaxtypes, fingerprint_configs
config = fingerprint_configs.build()
print(jaxtypes.static_fingerprint(config))
print(" ".join(config.transport.species))
"""


def fingerprint_in_fresh_interpreter(hash_seed: str) -> tuple[str, str]:
    """The config's fingerprint and its set's iteration order, from a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PRINT_FINGERPRINT],
        cwd=HERE,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    fingerprint, order = done.stdout.splitlines()
    return fingerprint, order


def test_stable_across_interpreters_with_different_hash_seeds() -> None:
    (first, first_order), (second, second_order) = (fingerprint_in_fresh_interpreter(s) for s in ("1", "2"))
    assert first_order != second_order, "the two seeds should iterate the frozenset differently"
    assert re.fullmatch("[0-9a-f]{64}", first)
    assert first == second == jaxtypes.static_fingerprint(build())


def replace_at(value: Any, path: str, new: Any) -> Any:
    """``value`` with the part at ``path`` (``.field`` and ``[i]`` steps) replaced by ``new``."""
    step, rest = re.match(r"(\.\w+|\[\d+\])(.*)", path).groups()  # type: ignore[union-attr]
    if step.startswith("["):
        index = int(step[1:-1])
        inner = new if not rest else replace_at(value[index], rest, new)
        return (*value[:index], inner, *value[index + 1 :])
    inner = new if not rest else replace_at(getattr(value, step[1:]), rest, new)
    if hasattr(value, "_fields"):
        return value._replace(**{step[1:]: inner})
    return dataclasses.replace(value, **{step[1:]: inner})


ONE_FIELD_CHANGES = [
    (".solver.tolerance", 1.0000000000000002e-6),
    (".solver.method", Method.EULER),
    (".solver.update", double),
    (".solver.limits.high", 1e9),
    (".transport.coefficient", -0.0),
    (".transport.boundary.kind", "neumann"),
    (".transport.boundary.value", 1),
    (".transport.species", frozenset({"D", "T"})),
    (".transport.weights", 1 - 2j),
    (".sizes[1]", 17),
    (".sizes[2]", 32.0),
    (".sizes[2]", True),
    (".label", "run "),
    (".tag", b"v2"),
    (".seed", 0),
    (".flags", frozenset({("adaptive", False), ("implicit", False)})),
    (".missing", math.inf),
    (".fn_type", int),
    (".singleton", os),
]


@pytest.mark.parametrize(("path", "new"), ONE_FIELD_CHANGES, ids=[f"{p}={spelled(v)}" for p, v in ONE_FIELD_CHANGES])
def test_a_one_field_change_anywhere_changes_the_fingerprint_and_is_named(path: str, new: Any) -> None:
    config, changed = build(), replace_at(build(), path, new)
    assert changed != config
    assert jaxtypes.static_fingerprint(changed) != jaxtypes.static_fingerprint(config)
    found = differences(describe(config, "config"), describe(changed, "config"), "config")
    assert [d.path for d in found] == ["config" + path]


def test_a_change_of_type_is_named_with_both_types() -> None:
    found = differences(describe((1, 2), "t"), describe((1, 2.0), "t"), "t")
    assert found[0] == ("t[1]", "2 (int)", "2.0 (float)")
    [(path, here, there)] = differences(describe((1,), "t"), describe((1, 2), "t"), "t")
    assert (path, here, there) == ("t[1]", "absent", "2")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (build(), Config(solver=Solver(), sizes=(8, 16, 32))),
        (frozenset({"a", "b", "c"}), frozenset({"c", "b", "a"})),
        (float("nan"), -float("nan")),
        (Limits(0.0, 1.0), Limits(0.0, 1.0)),
        (Boundary("a", 1.0), Boundary("a", 1.0)),
    ],
    ids=["rebuilt config", "frozenset order", "nan", "named tuple", "frozen dataclass"],
)
def test_equal_values_have_equal_fingerprints(a: Any, b: Any) -> None:
    assert jaxtypes.static_fingerprint(a) == jaxtypes.static_fingerprint(b)


def test_values_jit_tells_apart_have_different_fingerprints() -> None:
    fingerprints = {jaxtypes.static_fingerprint(v) for v in (1, 1.0, True, 0.0, -0.0, "1", b"1", (1,), None)}
    assert len(fingerprints) == 9
    assert jaxtypes.static_fingerprint(Transport()) != jaxtypes.static_fingerprint(Solver())


def test_a_value_that_cannot_be_static_has_no_fingerprint() -> None:
    class Handle:
        pass

    identity = r"value\[1\] holds a Handle, which hashes by identity.*\[static-identity-hash\]"
    with pytest.raises(StaticValueError, match=identity):
        jaxtypes.static_fingerprint((1, Handle()))
    with pytest.raises(StaticValueError, match=r"\[static-unhashable\]"):
        jaxtypes.static_fingerprint([1])


def test_an_object_whose_repr_shows_an_address_is_described_by_its_type() -> None:
    @dataclasses.dataclass(frozen=True, eq=False)
    class Token:
        def __eq__(self, other: object) -> bool:
            return isinstance(other, Token)

        def __hash__(self) -> int:
            return 0

        def __repr__(self) -> str:
            return f"<Token at {hex(id(self))}>"

    assert jaxtypes.static_fingerprint(Token()) == jaxtypes.static_fingerprint(Token())


@jaxtypes.pytree_dataclass
class Inner:
    y: Any
    steps: Static[int] = 3


@jaxtypes.pytree_dataclass
class Outer:
    x: Any
    inner: Inner
    method: Static[Method] = Method.EULER


def test_a_pytree_argument_is_described_by_its_static_fields_only() -> None:
    tree = {"b": [Outer(jnp.ones(2), Inner(jnp.zeros(3)))], "a": jnp.ones(1)}
    other = {"b": [Outer(jnp.zeros(2), Inner(jnp.ones(3), steps=4))], "a": jnp.zeros(1)}
    assert describe_metadata(jnp.ones(3)) is None
    assert describe_metadata({"a": jnp.ones(1), "b": (jnp.ones(2),)}) is None
    assert differences(describe_metadata(tree), describe_metadata(tree), "state") == []
    [(path, here, there)] = differences(describe_metadata(tree), describe_metadata(other), "state")
    assert (path, here, there) == ("state['b'][0].inner.steps", "3", "4")
