"""Cost of the cross-process agreement check, per compile, in a job of 2 processes on this machine.

Starts 2 processes x 2 virtual CPU devices (coordinator on 127.0.0.1) running this script. Each
round, every process compiles a small function sharded over all 4 devices with a new static
value twice, once checked and once not, and runs the check alone (the fingerprint of a nested
config plus the exchange through the coordination service); the order alternates between rounds,
and the processes meet before each timed step, so a process waiting for a slower one is not
counted. Prints the medians over the rounds and the ratio of checked to unchecked compiles, as
process 0 saw them.

    python benchmarks/static_agreement.py [--rounds 100]
"""

from __future__ import annotations

import argparse
import functools
import inspect
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

DEADLINE_S = 600
REPORT = "-- report --"  # what follows it in process 0's output is printed (gloo prints there too)


def launch(rounds: int) -> None:
    """Run 2 copies of this script as a job; print process 0's report, kill both at the end."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu"}
    command = [sys.executable, __file__, "--rounds", str(rounds), "--port", str(port), "--process"]
    started = [
        subprocess.Popen([*command, str(i)], env=env, stdout=subprocess.PIPE, text=True, start_new_session=True)
        for i in range(2)
    ]
    try:
        reports = [p.communicate(timeout=DEADLINE_S)[0] for p in started]
    finally:
        for p in started:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    if any(p.returncode for p in started):
        sys.exit("a process of the job failed (its error is above)")
    print(reports[0].rpartition(REPORT + "\n")[2], end="")


def measure(process: int, rounds: int, port: int) -> None:
    import jax
    import numpy as np
    from jax.experimental import multihost_utils
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    import jaxtypes
    from jaxtypes import Static
    from jaxtypes._jit.agreement import AgreementCheck
    from jaxtypes._jit.fingerprint import digest

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=process, initialization_timeout=60)
    sharding = NamedSharding(Mesh(np.array(jax.devices()), ("x",)), PartitionSpec("x"))
    x = jax.make_array_from_callback((8,), sharding, lambda index: np.arange(8.0)[index])
    config = nested_config(jaxtypes.static_dataclass)

    def step(x: jax.Array, config: Static[Any], n: Static[int]) -> jax.Array:
        return x * n + config.scale

    checked = jaxtypes.jit(step, device=sharding, check_static_agreement=True)
    unchecked = jaxtypes.jit(step, device=sharding, check_static_agreement=False)
    check = AgreementCheck(step, inspect.signature(step), frozenset({"config", "n"}), True)
    samples: dict[str, list[float]] = {"check": [], "fingerprint": [], "checked": [], "unchecked": []}
    for n in range(rounds):
        args = (x, config, n)
        pair: list[tuple[str, Callable[[], Any]]] = [
            ("checked", functools.partial(checked, *args)),
            ("unchecked", functools.partial(unchecked, *args)),
        ]
        pair.append(("check", functools.partial(check, args, {})))
        pair.append(("fingerprint", lambda args=args: digest(check.describe_call(args, {}))))
        for name, call in pair if n % 2 else pair[::-1]:
            multihost_utils.sync_global_devices(f"{name} {n}")  # time the work, not the other's lag
            start = time.perf_counter()
            jax.block_until_ready(call())
            samples[name].append(time.perf_counter() - start)
    median = {name: statistics.median(times) * 1e3 for name, times in samples.items()}
    print(REPORT)
    print(f"jax {jax.__version__}: 2 processes x 2 CPU devices, median of {rounds} rounds (process {process})")
    print(f"one agreement check (fingerprint + exchange): {median['check']:8.3f} ms")
    print(f"  of which the call's fingerprint:            {median['fingerprint']:8.3f} ms")
    print(f"compile without the check:                    {median['unchecked']:8.3f} ms")
    print(
        f"compile with the check:                       {median['checked']:8.3f} ms  "
        f"({median['checked'] / median['unchecked']:.3f}x)"
    )
    jax.distributed.shutdown()


def nested_config(decorate: Callable[[type], Any]) -> Any:
    """A config of 3 levels and ~40 fields, the size of a real simulation's settings."""

    class Leaf:
        __annotations__ = {"a": float, "b": float, "c": int, "method": str}

    class Mid:
        __annotations__ = {"l0": Leaf, "l1": Leaf, "l2": Leaf, "name": str, "steps": int}

    class Top:
        __annotations__ = {"m0": Mid, "m1": Mid, "scale": float, "names": frozenset}

    leaf, mid, top = decorate(Leaf), decorate(Mid), decorate(Top)
    leaves = [leaf(a=0.1 * i, b=1e-6 * i, c=i, method="rk4") for i in range(3)]
    mids = [mid(*leaves, name=f"m{i}", steps=10 * i) for i in range(2)]
    return top(*mids, scale=1.5, names=frozenset({"density", "temperature", "pressure"}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--process", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.process is None:
        launch(args.rounds)
    else:
        measure(args.process, args.rounds, args.port)


if __name__ == "__main__":
    main()
