"""Per-call overhead of ``jaxtypes.jit`` against ``jax.jit`` (goal: at most 1.05x) and others.

A tiny function, already compiled, called with one array and one static int; every variant is
timed in the same process, interleaved round by round so drift hits all alike, and the median
of the rounds is reported. ``equinox.filter_jit`` and ``jax_dataclasses.jit`` are measured when
installed. Run: ``python benchmarks/jit_overhead.py [--rounds N] [--calls N]``.
"""

import argparse
import functools
import importlib.util
import statistics
import timeit
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

import jaxtypes
from jaxtypes import Static


def scale(x: jax.Array, n: Static[int]) -> jax.Array:
    return x * n


def plain_method(self: Any, x: jax.Array) -> jax.Array:
    return x * self.n


@jaxtypes.static_dataclass
class Scaler:
    n: int

    @jaxtypes.jit
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.n

    apply_with_jax = jax.jit(plain_method, static_argnums=0)


def variants() -> dict[str, Callable[[jax.Array], Any]]:
    """Each variant as a one-argument call with the static argument already chosen."""
    jax_fn = jax.jit(scale, static_argnames="n")
    ours = jaxtypes.jit(scale)
    scaler = Scaler(3)
    found: dict[str, Callable[[jax.Array], Any]] = {
        "jax.jit": lambda x: jax_fn(x, 3),
        "jaxtypes.jit": lambda x: ours(x, 3),
        "jax.jit method (static self)": lambda x: scaler.apply_with_jax(x),
        "jaxtypes.jit method": lambda x: scaler.apply(x),
    }
    if importlib.util.find_spec("equinox"):
        import equinox

        eqx_fn = equinox.filter_jit(scale)
        found["equinox.filter_jit"] = lambda x: eqx_fn(x, 3)
    if importlib.util.find_spec("jax_dataclasses"):
        import jax_dataclasses

        def jdc_scale(x: jax.Array, n: jax_dataclasses.Static[int]) -> jax.Array:
            return x * n

        jdc_fn = jax_dataclasses.jit(jdc_scale)
        found["jax_dataclasses.jit"] = lambda x: jdc_fn(x, 3)
    return found


def measure(rounds: int, calls: int) -> dict[str, float]:
    """Median seconds per call of each variant over interleaved rounds."""
    x = jnp.ones(4)
    calls_by_name = variants()
    for call in calls_by_name.values():
        jax.block_until_ready(call(x))  # compile outside the timing
    samples: dict[str, list[float]] = {name: [] for name in calls_by_name}
    for _ in range(rounds):
        for name, call in calls_by_name.items():
            samples[name].append(timeit.timeit(functools.partial(call, x), number=calls) / calls)
    return {name: statistics.median(times) for name, times in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    results = measure(args.rounds, args.calls)
    baselines = {"jaxtypes.jit method": "jax.jit method (static self)"}
    print(f"jax {jax.__version__}, {jax.devices()[0].platform}; median of {args.rounds} rounds x {args.calls} calls")
    print(f"{'variant':30} {'us/call':>8} {'ratio':>7}  against")
    for name, seconds in results.items():
        base = baselines.get(name, "jax.jit")
        print(f"{name:30} {seconds * 1e6:8.2f} {seconds / results[base]:6.3f}x  {base}")


if __name__ == "__main__":
    main()
