"""Timing shared by the benchmarks: cost per call on one clock, best of interleaved rounds.

Process CPU time is the default clock: on a machine shared with other work, a round that lost
the CPU to another process costs more wall time but not more CPU time, so the best round is
steadier. ``--clock wall`` measures elapsed time instead.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def parse_options(description: str, rounds: int) -> tuple[argparse.Namespace, Callable[[], float]]:
    """The options every benchmark takes (``--rounds``, ``--calls``, ``--clock``), and the clock."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--clock", choices=CLOCKS, default="cpu", help="process CPU time (default) or wall time")
    options = parser.parse_args()
    return options, CLOCKS[options.clock]


def seconds_per_call(operation: Callable[[], object], calls: int, clock: Callable[[], float]) -> float:
    start = clock()
    for _ in range(calls):
        operation()
    return (clock() - start) / calls


def best_of_interleaved(rounds: dict[K, Callable[[], float]], count: int) -> dict[K, float]:
    """Run every case's round in turn, ``count`` times over; each case's best (lowest) result."""
    for run in rounds.values():
        run()  # warm up: first calls, caches, compilation
    samples: dict[K, list[float]] = {case: [] for case in rounds}
    for _ in range(count):
        for case, run in rounds.items():
            samples[case].append(run())
    return {case: min(times) for case, times in samples.items()}
