"""Cost of the jit sanitizer: a sanitized call over a plain ``jax.jit`` call, and a test suite's
wall time with the pytest plugin on over off.

Four functions, each already compiled, timed plain and under ``jaxtypes.sanitize()`` in one
process, interleaved round by round (best round of each): no static argument; a 20-field static
config (a frozen dataclass); a pytree with static metadata; a function that reads ten globals
while tracing. Goals: at most 2x without static arguments, 4x with them. Then ``tests/runtime``
runs twice under pytest, without and with ``--jaxtypes-sanitize`` (goal: at most 1.3x), unless
``--no-suite``.

    python benchmarks/sanitize_overhead.py [--rounds N] [--calls N] [--clock cpu|wall] [--no-suite]
"""

from __future__ import annotations

import dataclasses
import functools
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.argv, _SUITE = [a for a in sys.argv if a != "--no-suite"], "--no-suite" not in sys.argv
sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from timing import best_of_interleaved, parse_options, seconds_per_call  # noqa: E402

import jaxtypes  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

Config = dataclasses.make_dataclass(
    "Config", [(f"f{i}", int, dataclasses.field(default=i)) for i in range(20)], frozen=True
)

G0 = G1 = G2 = G3 = G4 = G5 = G6 = G7 = G8 = G9 = 1.0


@functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["names"])
@dataclasses.dataclass
class Tree:
    x: jax.Array
    names: tuple[str, ...]


def plain(x: jax.Array) -> jax.Array:
    return x + 1


def configured(x: jax.Array, config: Any) -> jax.Array:
    return x * config.f3


def of_tree(tree: Tree) -> jax.Array:
    return tree.x * len(tree.names)


def reads_globals(x: jax.Array) -> jax.Array:
    return x * (G0 + G1 + G2 + G3 + G4 + G5 + G6 + G7 + G8 + G9)


def cases() -> dict[str, tuple[Callable[..., Any], dict[str, Any], tuple[Any, ...]]]:
    x = jnp.ones(4)
    return {
        "no static argument": (plain, {}, (x,)),
        "20-field static config": (configured, {"static_argnums": 1}, (x, Config())),
        "pytree with static metadata": (of_tree, {}, (Tree(x, ("a", "b")),)),
        "reads ten globals": (reads_globals, {}, (x,)),
    }


def main() -> None:
    options, clock = parse_options(__doc__ or "", rounds=7)
    rounds: dict[tuple[str, str], Callable[[], float]] = {}
    with jaxtypes.sanitize() as report:
        for name, (fun, jit_options, args) in cases().items():
            watched = jax.jit(fun, **jit_options)
            watched(*args)
            rounds[(name, "sanitized")] = functools.partial(
                seconds_per_call, lambda w=watched, a=args: w(*a), options.calls, clock
            )
        for name, (fun, jit_options, args) in cases().items():
            original = jax.jit.__wrapped__(fun, **jit_options)  # jax's own jit, under the watching one
            original(*args)
            rounds[(name, "plain")] = functools.partial(
                seconds_per_call, lambda o=original, a=args: o(*a), options.calls, clock
            )
        best = best_of_interleaved(rounds, options.rounds)
    assert not report.findings, report.findings
    print(f"{'case':<30} {'plain us':>9} {'sanitized us':>13} {'ratio':>6}")
    for name in cases():
        plain_s, sanitized_s = best[(name, "plain")], best[(name, "sanitized")]
        print(f"{name:<30} {plain_s * 1e6:>9.1f} {sanitized_s * 1e6:>13.1f} {sanitized_s / plain_s:>5.2f}x")
    if _SUITE:
        off, on = _suite_seconds(False), _suite_seconds(True)
        print(f"tests/runtime wall time: off {off:.1f} s, on {on:.1f} s, ratio {on / off:.2f}x")


def _suite_seconds(sanitize: bool) -> float:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/runtime"]
    command += ["--jaxtypes-sanitize"] if sanitize else []
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4"}
    start = time.perf_counter()
    subprocess.run(command, cwd=REPO, env=env, capture_output=True, check=False)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
