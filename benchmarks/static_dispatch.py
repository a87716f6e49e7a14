"""Per-call cost of a nested static config (~56 fields, three levels) as a jit static argument.

Prints each variant's dispatch time as a ratio to the same jitted call without the config, for
the same object on every call and for a freshly built equal copy on every call (copies built
beforehand, so only dispatch is timed), plus construction cost per config. All variants are
measured interleaved in one process run, so machine noise hits them alike.

    python benchmarks/static_dispatch.py [--rounds 15] [--calls 2000]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from jaxtypes import static_dataclass

LEAF_FIELDS = ("a", "b", "c", "d")


def config_classes(decorate: Callable[[type], type]) -> type:
    """Leaf (4 scalars) < Mid (3 leaves, 2 scalars) < Top (3 mids, 2 scalars), decorated alike."""

    class Leaf:
        __annotations__ = dict.fromkeys(LEAF_FIELDS, float)

    class Mid:
        __annotations__ = {"l0": Leaf, "l1": Leaf, "l2": Leaf, "name": str, "steps": int}

    class Top:
        __annotations__ = {"m0": Mid, "m1": Mid, "m2": Mid, "scale": float, "mode": str}

    leaf, mid, top = decorate(Leaf), decorate(Mid), decorate(Top)

    def build(seed: int = 0) -> Any:
        def make_mid(i: int) -> Any:
            leaves = [leaf(*(float(seed + i + j + k) for k in range(4))) for j in range(3)]
            return mid(*leaves, f"mid{i}", 10 + i)

        return top(make_mid(0), make_mid(1), make_mid(2), 2.0, "fast")

    return build  # type: ignore[return-value]


class ToraxStyle:
    """TORAX-style value hashing: ``__hash__`` walks the fields on every call."""

    def __init_subclass__(cls) -> None:
        dataclasses.dataclass(frozen=True, eq=True)(cls)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, f.name) for f in dataclasses.fields(self))))  # type: ignore[arg-type]


def torax_style(cls: type) -> type:
    return type(cls.__name__, (ToraxStyle,), {"__annotations__": cls.__annotations__})


VARIANTS: dict[str, Callable[[type], type]] = {
    "jaxtypes static_dataclass": static_dataclass,
    "stdlib frozen dataclass": dataclasses.dataclass(frozen=True),
    "TORAX-style rehash per call": torax_style,
}


def time_calls(call: Callable[[Any], Any], args: list[Any], calls: int) -> float:
    """Seconds per call, cycling through ``args``."""
    n = len(args)
    start = time.perf_counter()
    for i in range(calls):
        out = call(args[i % n])
    out.block_until_ready()
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    options = parser.parse_args()

    x = jnp.ones(4)
    plain = jax.jit(lambda x: x + 1.0)
    with_config = jax.jit(lambda x, config: x + 1.0, static_argnames="config")
    call = lambda config: with_config(x, config=config)  # noqa: E731
    cases: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
        "no static argument": (lambda _: plain(x), [None]),
        "a static int (the floor for any static argument)": (call, [1]),
    }
    construction: dict[str, float] = {}
    for name, decorate in VARIANTS.items():
        build = config_classes(decorate)
        same = build()
        copies = [build() for _ in range(64)]
        assert all(c == same for c in copies)
        start = time.perf_counter()
        for _ in range(200):
            build()
        construction[name] = (time.perf_counter() - start) / 200
        cases[f"{name}, same object"] = (call, [same])
        cases[f"{name}, rebuilt copy"] = (call, copies)
    for call, args in cases.values():
        time_calls(call, args, 200)

    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(options.rounds):
        for name, (call, args) in cases.items():
            samples[name].append(time_calls(call, args, options.calls))
    base = min(samples["no static argument"])
    print(f"jax {jax.__version__}; best of {options.rounds} interleaved rounds x {options.calls} calls")
    print(f"{'variant':<52} {'us/call':>8} {'ratio':>7}")
    for name, times in samples.items():
        median = min(times)
        print(f"{name:<52} {median * 1e6:>8.2f} {median / base:>6.2f}x")
    print(f"\n{'construction of one config (56 fields)':<50} {'us':>8} {'vs stdlib':>9}")
    stdlib = construction["stdlib frozen dataclass"]
    for name, seconds in construction.items():
        print(f"{name:<50} {seconds * 1e6:>8.1f} {seconds / stdlib:>8.2f}x")


if __name__ == "__main__":
    main()
