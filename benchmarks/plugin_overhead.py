"""mypy wall time with and without the jaxtypes plugin on a real JAX codebase (optax).

Cold cache every run, runs interleaved (without, with, without, ...) so machine noise hits
both sides alike; prints each time, the medians and their ratio (goal: at most 1.05x).

    pip install optax
    python benchmarks/plugin_overhead.py [--runs 3] [--package optax]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = "[mypy]\nignore_missing_imports = True\n"


def run_mypy(package: str, plugin: bool, workdir: Path) -> float:
    """Seconds for one cold mypy run over the copy of ``package``'s source in ``workdir``."""
    config = workdir / ("with.ini" if plugin else "without.ini")
    config.write_text(CONFIG + ("plugins = mypy_plugin\n" if plugin else ""))
    cache = Path(tempfile.mkdtemp(dir=workdir))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "mypy", package, "--exclude", "_test\\.py$", "--config-file", str(config), "--cache-dir", str(cache)]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1) or "internal error" in result.stdout:
        raise SystemExit(f"mypy failed:\n{result.stdout}\n{result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--package", default="optax")
    options = parser.parse_args()
    times: dict[bool, list[float]] = {False: [], True: []}
    spec = importlib.util.find_spec(options.package)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{options.package} is not installed: pip install {options.package}")
    with tempfile.TemporaryDirectory() as tmp:
        # Checked as source files (installed packages without py.typed cannot be checked).
        shutil.copytree(Path(spec.origin).parent, Path(tmp) / options.package)
        for run in range(options.runs):
            for plugin in (False, True):
                seconds = run_mypy(options.package, plugin, Path(tmp))
                times[plugin].append(seconds)
                print(f"run {run + 1} {'with' if plugin else 'without'} plugin: {seconds:.2f} s", flush=True)
    without, with_plugin = statistics.median(times[False]), statistics.median(times[True])
    print(f"median without plugin: {without:.2f} s")
    print(f"median with plugin:    {with_plugin:.2f} s")
    print(f"ratio: {with_plugin / without:.3f}x (goal <= 1.05x)")


if __name__ == "__main__":
    main()
