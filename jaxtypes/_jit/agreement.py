"""Cross-process agreement of a jitted call's static arguments, checked on every compile.

In a multi-process JAX job every process runs the same program and must compile the same code
for each jitted call. A static value built from something local (a host path, an environment
variable, the local device count) makes one process compile another program, and the first
collective between them hangs. When the check is on, each compile of a ``jaxtypes.jit`` function
(a trace: a call that hits jit's cache never gets here) compares the call's fingerprint across
processes through JAX's coordination service, the key-value store and barriers that
``jax.distributed.initialize`` starts, each wait bounded by a deadline.

The n-th checked compile of a function (named by module and qualified name) meets the n-th
compile of that function on the other processes:

1. each process stores the fingerprint of its call under ``.../<function>/<n>/digest/<process>``
   and waits at the barrier ``.../<function>/<n>``; a process that is not there by the deadline
   is named in the error (a late one finds the barrier failed and raises too);
2. each reads every fingerprint; if they are all equal the compile goes on;
3. otherwise every process (each saw the same fingerprints) stores the description of its call,
   reads the description of the first process whose fingerprint differs from its own, and raises
   ``StaticAgreementError`` naming the argument and the field that differ.

Each check leaves one short entry per process in the store (the fingerprint under its key).
"""

from __future__ import annotations

import inspect
import json
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from jaxtypes._classes.errors import StaticAgreementError
from jaxtypes._jit.fingerprint import Difference, Node, describe, describe_metadata, differences, digest, encode
from jaxtypes._jit.jax_internals import coordination_state
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import AGREEMENT_ABSENT_FIX, JIT_STATIC_DISAGREEMENT

_PREFIX = "jaxtypes/static-agreement"


class _Setting:
    """The process-wide switch: on for functions that do not choose, and the deadline."""

    enabled = False
    timeout_s = 300.0


def check_static_agreement(enabled: bool = True, *, timeout_s: float = 300.0) -> None:
    """Check, on every compile of every ``jaxtypes.jit`` function in this process, that all
    processes of the job compile it for the same static arguments.

    A function jitted with ``check_static_agreement=True`` or ``False`` decides for itself.
    ``timeout_s`` bounds how long a compile waits for the other processes to reach the same
    compile; it applies to every checked function. In a single-process job nothing is checked.
    """
    if not timeout_s > 0:
        raise ValueError(f"check_static_agreement: timeout_s must be positive, got {timeout_s!r}")
    _Setting.enabled = enabled
    _Setting.timeout_s = timeout_s


class _Runtime(NamedTuple):
    client: Any
    process: int
    processes: int


class AgreementCheck:
    """The check of one jitted function, called by its traced wrapper with the traced arguments.

    ``enabled`` is the function's own choice (None: follow ``check_static_agreement``).
    """

    def __init__(
        self, fn: Callable[..., Any], signature: inspect.Signature, static: frozenset[str], enabled: bool | None
    ) -> None:
        self._fn = fn
        self._qualname = getattr(fn, "__qualname__", repr(fn))
        self._key = f"{getattr(fn, '__module__', None)}.{self._qualname}"
        self._signature = signature
        self._static = static
        self._enabled = enabled

    def __call__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if not (_Setting.enabled if self._enabled is None else self._enabled):
            return
        runtime = _coordination()
        if runtime is not None:
            self._agree(runtime, self.describe_call(args, kwargs), _sequence(self._key))

    def describe_call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Node:
        """The description of a call: its static arguments and the static fields of its pytree
        arguments, by parameter name."""
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        parts = []
        for name, value in bound.arguments.items():
            static = name in self._static
            node = describe(value, f"{self._qualname} argument {name}") if static else describe_metadata(value)
            if node is not None:
                parts.append([name, node])
        return ["node", "call", parts]

    def _agree(self, runtime: _Runtime, call: Node, number: int) -> None:
        from jax.errors import JaxRuntimeError

        client, process, processes = runtime
        deadline = time.monotonic() + _Setting.timeout_s
        prefix = f"{_PREFIX}/{self._key}/{number}"
        mine = digest(call)
        client.key_value_set(f"{prefix}/digest/{process}", mine)
        try:
            client.wait_at_barrier(prefix, _remaining_ms(deadline))
        except JaxRuntimeError:
            arrived = _by_process(client.key_value_dir_get(f"{prefix}/digest/"))
            raise self._absent(process, [p for p in range(processes) if p not in arrived]) from None
        digests = _by_process(client.key_value_dir_get(f"{prefix}/digest/"))
        if all(theirs == mine for theirs in digests.values()):
            return
        other = min(p for p, theirs in digests.items() if theirs != mine)
        client.key_value_set(f"{prefix}/description/{process}", encode(call))
        try:
            described = client.blocking_key_value_get(f"{prefix}/description/{other}", _remaining_ms(deadline))
        except JaxRuntimeError:
            found = []
        else:
            found = differences(call, json.loads(described))
        raise self._disagreement(process, other, found, digests)

    def _disagreement(
        self, process: int, other: int, found: list[Difference], digests: dict[int, str]
    ) -> StaticAgreementError:
        if not found:  # the other process's description did not arrive in time
            where = self._qualname
            what = (
                f"was compiled for static arguments with fingerprint {digests[process][:12]} on process "
                f"{process} (this process) and {digests[other][:12]} on process {other}"
            )
        else:
            first = found[0]
            more = f"; {len(found) - 1} more differ: {', '.join(d.path for d in found[1:4])}" if found[1:] else ""
            where = f"{self._qualname}: {first.path}"
            what = f"is {first.here} on process {process} (this process) and {first.there} on process {other}{more}"
        return StaticAgreementError(Problem(JIT_STATIC_DISAGREEMENT, what), where, defined_at=self._fn)

    def _absent(self, process: int, missing: list[int]) -> StaticAgreementError:
        if missing:
            what = (
                f"was compiled on process {process} (this process), and process(es) "
                f"{', '.join(map(str, missing))} did not compile it within {_Setting.timeout_s:g} s"
            )
        else:
            what = (
                f"was compiled on process {process} (this process) more than {_Setting.timeout_s:g} s "
                "after the other processes compiled it, and they stopped waiting"
            )
        return StaticAgreementError(
            Problem(JIT_STATIC_DISAGREEMENT, what, AGREEMENT_ABSENT_FIX), self._qualname, defined_at=self._fn
        )


def _coordination() -> _Runtime | None:
    """The coordination-service client of a job of several processes, else None."""
    state = coordination_state()
    if state.client is None or state.num_processes < 2:
        return None
    return _Runtime(state.client, state.process_id, state.num_processes)


_sequence_lock = threading.Lock()
_sequences: dict[str, int] = {}


def _sequence(key: str) -> int:
    """The number of this checked compile of the function named ``key`` in this process."""
    with _sequence_lock:
        _sequences[key] = number = _sequences.get(key, 0) + 1
    return number


def _remaining_ms(deadline: float) -> int:
    return max(1, int((deadline - time.monotonic()) * 1000))


def _by_process(entries: Iterable[tuple[str, str]]) -> dict[int, str]:
    """Key-value entries ``.../digest/<process>`` by process index."""
    return {int(key.rsplit("/", 1)[1]): value for key, value in entries}
