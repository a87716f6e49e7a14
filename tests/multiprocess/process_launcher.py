"""Start a multi-process JAX job on this machine and collect what each process reports.

Each process runs ``multiprocess_worker.py`` with two virtual CPU devices, in its own process
group; the coordinator listens on 127.0.0.1 at a free port. The whole job has one deadline, and
every process still running when the job ends (normally or not) is killed with its group.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WORKER = Path(__file__).resolve().parent / "multiprocess_worker.py"
JOB_DEADLINE_S = 150


class JobFailed(AssertionError):
    """A process failed, printed no result, or the job ran past its deadline; ``pids`` are the
    job's processes (each one's group is killed before this is raised)."""

    def __init__(self, message: str, pids: list[int]) -> None:
        super().__init__(message)
        self.pids = pids


def run_job(scenario: str, processes: int = 2, deadline_s: float = JOB_DEADLINE_S) -> list[dict[str, Any]]:
    """Run ``scenario`` on ``processes`` processes; each one's ``RESULT`` record, by process index."""
    env = {
        **os.environ,
        "XLA_FLAGS": "--xla_force_host_platform_device_count=2",
        "JAX_PLATFORMS": "cpu",
    }
    port = _free_port()
    started = [
        subprocess.Popen(
            [sys.executable, str(WORKER), scenario, str(index), str(processes), str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        for index in range(processes)
    ]
    end = time.monotonic() + deadline_s
    outputs: list[tuple[str, str]] = []
    try:
        for process in started:
            try:
                outputs.append(process.communicate(timeout=max(0.0, end - time.monotonic())))
            except subprocess.TimeoutExpired:
                pids = [p.pid for p in started]
                raise JobFailed(f"{scenario}: the job ran past its {deadline_s:g} s deadline", pids) from None
    finally:
        for process in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    return [_result(scenario, started, index, *output) for index, output in enumerate(outputs)]


def _result(
    scenario: str, started: list[subprocess.Popen[str]], index: int, stdout: str, stderr: str
) -> dict[str, Any]:
    returncode = started[index].returncode
    records = [line[len("RESULT ") :] for line in stdout.splitlines() if line.startswith("RESULT ")]
    if returncode != 0 or len(records) != 1:
        message = f"{scenario}: process {index} exited with {returncode}\n{stdout}\n{stderr[-4000:]}"
        raise JobFailed(message, [p.pid for p in started])
    return json.loads(records[0])  # type: ignore[no-any-return]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # type: ignore[no-any-return]
