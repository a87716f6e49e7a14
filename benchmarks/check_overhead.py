"""Wall time of ``jaxtypes check`` against plain ``mypy`` with the plugin, cold and warm.

Both run as subprocesses on the same paths and the same configuration (the project's, plus the
plugin), each with its own cache; runs are interleaved so drift in machine load hits both.
Usage: ``python benchmarks/check_overhead.py [--repeat N] [PATHS...]`` (default: jaxtypes/).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = "[mypy]\npython_version = 3.11\nplugins = mypy_plugin\n"


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("paths", nargs="*", default=["jaxtypes/"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="check-overhead-"))
    config = work / "mypy.ini"
    config.write_text(CONFIG)
    tools = {
        "mypy": [sys.executable, "-m", "mypy", "--config-file", str(config)],
        "jaxtypes check": [sys.executable, "-m", "jaxtypes", "check", "--config-file", str(config)],
    }
    times: dict[tuple[str, str], list[float]] = {(tool, mode): [] for tool in tools for mode in ("cold", "warm")}
    try:
        for _ in range(args.repeat):
            for tool, command in tools.items():
                cache = work / tool.replace(" ", "-")
                shutil.rmtree(cache, ignore_errors=True)
                run = [*command, "--cache-dir", str(cache), *args.paths]
                times[tool, "cold"].append(timed(run))
                times[tool, "warm"].append(timed(run))
    finally:
        shutil.rmtree(work)
    print(f"paths: {' '.join(args.paths)}; {args.repeat} interleaved repeats; median seconds")
    for mode in ("cold", "warm"):
        mypy, check = (statistics.median(times[tool, mode]) for tool in tools)
        print(f"{mode}: mypy {mypy:.2f} s, jaxtypes check {check:.2f} s, ratio {check / mypy:.2f}")


if __name__ == "__main__":
    main()
