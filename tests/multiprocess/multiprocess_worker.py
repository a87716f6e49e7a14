"""One process of a multi-process JAX job, started by ``process_launcher.run_job``.

Usage: ``python multiprocess_worker.py SCENARIO PROCESS_ID PROCESS_COUNT PORT``. The process joins
the job (coordinator on 127.0.0.1:PORT), runs SCENARIO and prints one line ``RESULT <json>``
with what it saw: results gathered from every process, compile counts, fingerprints, and the
errors it raised (type, code, message). Every wait has a deadline (``WAIT_S``).
"""

from __future__ import annotations

import enum
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import jax
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxtypes
from jaxtypes import Static
from jaxtypes._jit.agreement import _coordination

WAIT_S = 60
ABSENT_WAIT_S = 3


class Method(enum.Enum):
    EULER = "euler"
    RK4 = "rk4"


def halve(x: Any) -> Any:
    return x / 2


@jaxtypes.static_dataclass
class Solver:
    tolerance: float = 1e-6
    method: Method = Method.RK4
    update: Callable[[Any], Any] = halve


@jaxtypes.static_dataclass
class Config:
    solver: Solver = Solver()
    scale: int = 3
    names: frozenset[str] = frozenset({"density", "temperature"})


@jaxtypes.pytree_dataclass
class State:
    x: jax.Array
    order: Static[int] = 1

    @jaxtypes.jit
    def advance(self, config: Config) -> State:
        return State(config.solver.update(self.x) * config.scale + self.order, self.order)


@jaxtypes.static_dataclass
class Scaler:
    factor: int

    @jaxtypes.jit
    def apply(self, x: jax.Array) -> jax.Array:
        return x * self.factor


def sharding() -> NamedSharding:
    """The x axis split over all devices of all processes."""
    return NamedSharding(Mesh(np.array(jax.devices()), ("x",)), PartitionSpec("x"))


def global_arange(n: int) -> jax.Array:
    """0..n-1 as one global array, each process providing its own shards."""
    values = np.arange(n, dtype=np.float32)
    return jax.make_array_from_callback((n,), sharding(), lambda index: values[index])


def gathered(array: jax.Array) -> list[float]:
    """A global array's full value, gathered onto this process."""
    return np.asarray(multihost_utils.process_allgather(array, tiled=True)).tolist()


def build_step(check: bool | None = None) -> Any:
    """A function jitted onto every device of the job (``check``: its own agreement switch)."""

    @jaxtypes.jit(device=sharding(), check_static_agreement=check)
    def step(state: State, config: Config) -> jax.Array:
        if config.solver.method is Method.RK4:
            return config.solver.update(state.x) * config.scale + state.order
        return state.x

    return step


def agree(process: int) -> dict[str, Any]:
    """Every kind of jitted call across processes, with the check on for the whole process."""
    jaxtypes.check_static_agreement(timeout_s=WAIT_S)
    step = build_step()
    x = global_arange(8)
    config = Config()
    first = step(State(x, order=2), config)
    again = step(State(x * 0 + 1, order=2), Config())  # equal config: a cache hit, no check
    other = step(State(x, order=2), Config(scale=5))  # a second checked compile
    scaler = Scaler(4)
    return {
        "sharded": first.sharding.is_equivalent_to(sharding(), 1),
        "step": gathered(first),
        "step_again": gathered(again),
        "step_other": gathered(other),
        "step_compiles": len(step.compiles),
        "advance": gathered(State(x, order=1).advance(config).x),
        "apply": gathered(scaler.apply(x)),
        "apply_compiles": len(Scaler.apply.compiles),
        "fingerprint": jaxtypes.static_fingerprint(config),
    }


def disagree(process: int) -> dict[str, Any]:
    """Process 1 differs in one nested field, then in a pytree argument's static field, with the
    check on for that function only; then a process-local function opts out of the check that is
    now on for the whole process, and is called with a different value on each process."""
    x = global_arange(8)
    step = build_step(check=True)
    tolerance = 1e-6 if process == 0 else 1e-5
    errors = {"config": _error(lambda: step(State(x), Config(solver=Solver(tolerance=tolerance))))}
    errors["state"] = _error(lambda: step(State(x, order=1 + process), Config()))
    jaxtypes.check_static_agreement(timeout_s=WAIT_S)

    @jaxtypes.jit(device=jax.local_devices()[0], check_static_agreement=False)
    def local(x: jax.Array, rank: Static[int]) -> jax.Array:
        return x + rank

    return {"errors": errors, "local": np.asarray(local(jax.numpy.zeros(2), process)).tolist()}


def absent(process: int) -> dict[str, Any]:
    """Process 1 compiles the checked function only once process 0 stopped waiting for it."""
    jaxtypes.check_static_agreement(timeout_s=ABSENT_WAIT_S)
    step = build_step()
    x = global_arange(8)
    client = _coordination().client  # type: ignore[union-attr]
    if process == 1:
        client.blocking_key_value_get("test/process 0 gave up", WAIT_S * 1000)
    error = _error(lambda: step(State(x), Config()))
    if process == 0:
        client.key_value_set("test/process 0 gave up", "yes")
    return {"errors": {"config": error}}


def stall(process: int) -> dict[str, Any]:
    """Process 1 never answers: the job can only end by its deadline."""
    if process == 1:
        time.sleep(10 * WAIT_S)
    return {}


def _error(call: Callable[[], Any]) -> dict[str, Any] | None:
    try:
        call()
    except jaxtypes.JaxtypesError as error:
        return {"type": type(error).__name__, "code": error.code, "where": error.where, "message": str(error)}
    return None


SCENARIOS = {"agree": agree, "disagree": disagree, "absent": absent, "stall": stall}


def main() -> None:
    scenario, process, count, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(
        f"127.0.0.1:{port}",
        num_processes=count,
        process_id=process,
        initialization_timeout=WAIT_S,
        shutdown_timeout_seconds=WAIT_S,
    )
    try:
        result = {"process": jax.process_index(), "devices": len(jax.devices()), **SCENARIOS[scenario](process)}
        print("RESULT " + json.dumps(result), flush=True)
    finally:
        jax.distributed.shutdown()


if __name__ == "__main__":
    main()
