"""What a static config costs: as a jit static argument, to construct, and in memory.

Dispatch: a nested config (~56 fields, three levels) passed to a jitted function, as a ratio to
the same call without it, for the same object on every call and for a freshly built equal copy
on every call (copies built beforehand, so only dispatch is timed).

Construction, against a stdlib frozen dataclass: flat configs of 4 and 20 fields (ints, floats,
strings and bools), for an equal value built again while one is alive (as in a loop that
rebuilds its config) and for a new value each time (dropped at once, so freeing it is counted);
and the nested config.

Memory: 100,000 live 4-field configs, traced with tracemalloc: bytes per instance, and what the
intern table adds per config.

Every timing is the best of interleaved rounds in one process run, so machine noise hits all
variants alike.

    python benchmarks/static_dispatch.py [--rounds 15] [--calls 2000] [--clock cpu|wall]
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from timing import best_of_interleaved, parse_options

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


FLAT_TYPES = (int, float, str, bool)
STDLIB = "stdlib frozen dataclass"
JAXTYPES = "jaxtypes static_dataclass"


def flat_class(decorate: Callable[[type], type], fields: int) -> type:
    """A config of ``fields`` fields typed int, float, str, bool, int, ..."""
    annotations = {f"f{i}": FLAT_TYPES[i % 4] for i in range(fields)}
    return decorate(type(f"Flat{fields}", (), {"__annotations__": annotations, "__module__": __name__}))


def flat_arguments(fields: int, seed: int) -> tuple[Any, ...]:
    """Arguments of a flat config: equal for equal seeds, and built anew on every call."""
    values = (seed, float(seed) / 7 + 1, f"mode{seed % 3}", seed % 2 == 0)
    return tuple(values[i % 4] for i in range(fields))


def construction_round(
    cls: Callable[..., Any], arguments: list[tuple[Any, ...]], calls: int, clock: Callable[[], float]
) -> Callable[[], float]:
    """A round of ``calls`` constructions of ``cls``, cycling through ``arguments``."""
    n = len(arguments)

    def run() -> float:
        start = clock()
        for i in range(calls):
            cls(*arguments[i % n])
        return (clock() - start) / calls

    return run


def construction_rounds(
    calls: int, clock: Callable[[], float], alive: list[Any]
) -> dict[tuple[str, str], Callable[[], float]]:
    """(case, variant) -> one round's seconds per construction. For the "equal value" cases,
    ``alive`` keeps one equal value alive, as the config a loop keeps using is."""
    rounds: dict[tuple[str, str], Callable[[], float]] = {}
    for fields in (4, 20):
        equal = [flat_arguments(fields, 1) for _ in range(64)]
        new = [flat_arguments(fields, seed) for seed in range(2, 2 + calls)]
        for variant in (STDLIB, JAXTYPES):
            cls = flat_class(VARIANTS[variant], fields)
            alive.append(cls(*equal[0]))
            rounds[f"{fields} fields, an equal value built again", variant] = construction_round(
                cls, equal, calls, clock
            )
            rounds[f"{fields} fields, a new value", variant] = construction_round(cls, new, calls, clock)
    for variant, decorate in VARIANTS.items():
        build = config_classes(decorate)
        alive.append(build())
        rounds["56 fields in three levels, an equal value built again", variant] = construction_round(
            build, [()], calls // 10, clock
        )
    return rounds


def memory_per_config(decorate: Callable[[type], type], count: int) -> tuple[float, float]:
    """Bytes per live 4-field config: the instance, and what the intern table adds."""
    cls = flat_class(decorate, 4)
    arguments = [flat_arguments(4, seed) for seed in range(count)]
    kept: list[Any] = [None] * count
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i, args in enumerate(arguments):
        kept[i] = cls(*args)
    total = tracemalloc.get_traced_memory()[0] - before
    info = getattr(cls, "__jaxtypes_static__", None)
    if info is not None:
        info.table._entries.clear()  # what clearing frees is what the table costs
        gc.collect()
    table_cost = total - (tracemalloc.get_traced_memory()[0] - before)
    tracemalloc.stop()
    return (total - table_cost) / count, table_cost / count


def time_calls(call: Callable[[Any], Any], args: list[Any], calls: int, clock: Callable[[], float]) -> float:
    """Seconds per call, cycling through ``args``."""
    n = len(args)
    start = clock()
    for i in range(calls):
        out = call(args[i % n])
    out.block_until_ready()
    return (clock() - start) / calls


def main() -> None:
    options, clock = parse_options(__doc__.splitlines()[0], rounds=15)

    x = jnp.ones(4)
    plain = jax.jit(lambda x: x + 1.0)
    with_config = jax.jit(lambda x, config: x + 1.0, static_argnames="config")
    call = lambda config: with_config(x, config=config)  # noqa: E731
    cases: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
        "no static argument": (lambda _: plain(x), [None]),
        "a static int (the floor for any static argument)": (call, [1]),
    }
    for name, decorate in VARIANTS.items():
        build = config_classes(decorate)
        same = build()
        copies = [build() for _ in range(64)]
        assert all(c == same for c in copies)
        cases[f"{name}, same object"] = (call, [same])
        cases[f"{name}, rebuilt copy"] = (call, copies)
    dispatch = best_of_interleaved(
        {name: functools.partial(time_calls, c, a, options.calls, clock) for name, (c, a) in cases.items()},
        options.rounds,
    )
    alive: list[Any] = []
    construction = best_of_interleaved(construction_rounds(options.calls, clock, alive), options.rounds)

    print(
        f"jax {jax.__version__}; {options.clock} time, best of {options.rounds} interleaved rounds"
        f" x {options.calls} calls"
    )
    base = dispatch["no static argument"]
    print(f"{'dispatch':<56} {'us/call':>8} {'ratio':>7}")
    for name, seconds in dispatch.items():
        print(f"{name:<56} {seconds * 1e6:>8.2f} {seconds / base:>6.2f}x")

    print(f"\n{'construction':<56} {'us':>8} {'vs stdlib':>9}")
    for case in dict.fromkeys(case for case, _ in construction):
        stdlib = construction[case, STDLIB]
        print(case)
        for variant in VARIANTS:
            if (case, variant) in construction:
                seconds = construction[case, variant]
                print(f"  {variant:<54} {seconds * 1e6:>8.2f} {seconds / stdlib:>8.2f}x")

    count = 100_000
    print(f"\nmemory, {count:,} live 4-field configs (tracemalloc)")
    stdlib_bytes, _ = memory_per_config(VARIANTS[STDLIB], count)
    ours, table = memory_per_config(VARIANTS[JAXTYPES], count)
    print(f"  {STDLIB:<54} {stdlib_bytes:>6.0f} bytes per instance")
    print(f"  {JAXTYPES:<54} {ours:>6.0f} bytes per instance")
    print(f"  {'jaxtypes intern table':<54} {table:>6.0f} bytes per config ({table * count / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
