"""Progress on long runs: on a terminal only, driven here through a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from check_runner import PROJECT, Check, project_ini
from jaxtypes._cli.check.mypy_run import prepare_mypy, run_mypy

DEADLINE = 300.0
"""Seconds any one run may take before the test fails (a cold run takes a few)."""


def run_on_a_terminal(*args: str, cwd: Path, stdout: Path) -> tuple[int, str]:
    """Run ``jaxtypes check`` with standard error on a pseudo-terminal and standard output in a
    file; its exit status and everything it wrote on the terminal."""
    master, slave = pty.openpty()
    with stdout.open("w") as out:
        command = [sys.executable, "-m", "jaxtypes", "check", *args]
        process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
    os.close(slave)
    terminal = b""
    deadline = time.monotonic() + DEADLINE
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            if not select.select([master], [], [], remaining)[0]:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:  # the child closed the terminal: it has exited
                break
            if not data:
                break
            terminal += data
        else:
            pytest.fail(f"jaxtypes check {' '.join(args)} ran past {DEADLINE} s")
        return process.wait(timeout=max(deadline - time.monotonic(), 1)), terminal.decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        os.close(master)


def test_a_cold_run_on_a_terminal_shows_how_far_mypy_has_got_and_erases_it(check: Check, tmp_path: Path) -> None:
    status, terminal = run_on_a_terminal(
        "--cache-dir", str(tmp_path / "cold"), "buggy.py", "messy.py", cwd=PROJECT, stdout=tmp_path / "out"
    )
    lines = terminal.split("\r")
    assert lines[0] == "" and lines[-1] == ""
    shown = [line.rstrip() for line in lines[1:-2]]
    progress = re.compile(r"jaxtypes check: mypy checked [0-2] of 2 files \(\d+ s\)")
    assert shown and all(progress.fullmatch(line) for line in shown)
    assert lines[-2].strip() == "" and len(lines[-2]) >= len(shown[-1])  # the line is erased at the end
    piped = check("buggy.py", "messy.py")
    assert (status, (tmp_path / "out").read_text()) == (piped.returncode, piped.stdout) == (1, piped.stdout)


def test_quiet_shows_nothing_on_a_terminal(tmp_path: Path) -> None:
    status, terminal = run_on_a_terminal(
        "--quiet", "--cache-dir", str(tmp_path / "cold"), "buggy.py", cwd=PROJECT, stdout=tmp_path / "out"
    )
    assert (status, terminal) == (1, "")
    assert (tmp_path / "out").read_text().endswith("static-dynamic-child 1, static-unhashable 1\n")


@pytest.mark.parametrize("workers", [None, "2"], ids=["serial", "workers"])
def test_mypy_tells_of_each_source_file_it_checked_also_from_parallel_workers(
    tmp_path: Path, shared_cache: Path, monkeypatch: pytest.MonkeyPatch, workers: str | None
) -> None:
    """What the display counts: mypy's report of each file, made in this process either way."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mypy.ini").write_text(project_ini())
    names = ["progress_one.py", "progress_two.py"]
    for name in names:
        (tmp_path / name).write_text((PROJECT / "buggy.py").read_text())
    # -n changes mypy's options, so it gets a cache of its own.
    cache = shared_cache if workers is None else tmp_path / "cache"
    job = prepare_mypy(names, config_file=None, cache_dir=str(cache), workers=workers)
    done: list[str] = []
    outcome = run_mypy(job, on_file_done=done.append)
    assert (outcome.crash, outcome.stopped, len(outcome.findings)) == (None, [], 4)
    assert {str(tmp_path / name) for name in names} <= {os.path.abspath(path) for path in done}
