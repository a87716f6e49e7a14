"""mypy with the jaxtypes plugin over real JAX codebases: crashes, findings, wall-time overhead.

The packages (default: optax, equinox, diffrax) are installed from the package index into the
current environment if missing, their sources are copied into a scratch folder and checked in
one mypy run, so jax itself is analysed once. Reported:

- internal errors: mypy crashes and the plugin's own internal-error notes (must be 0);
- every diagnostic carrying one of the plugin's codes, to be reviewed by hand;
- wall and CPU time without and with the plugin, cold cache every run, runs interleaved
  (without, with, without, ...) so machine noise hits both sides alike; the ratio of the
  medians and the best-of ratio (goal: at most 1.05x);
- with ``--profile``: one in-process run under cProfile and the share of it spent inside the
  plugin (its hooks and hook lookups), a measure the machine's noise does not blur.

    python benchmarks/real_codebases.py [--runs 3] [--profile] [--select CODE,...] [--check-untyped-defs] [PACKAGE ...]
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import importlib.util
import os
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from jaxtypes._vocabulary.internal_errors import INTERNAL_ERROR  # noqa: E402  (after the checkout is importable)
from mypy_plugin.reporting import ERROR_CODES  # noqa: E402

CONFIG = "[mypy]\nignore_missing_imports = True\n"
DEFAULT_PACKAGES = ("optax", "equinox", "diffrax")
PLUGIN_DIRECTORY = str(REPO / "mypy_plugin")
_CODE = re.compile(r"\[([a-z-]+)\]$")


def source_folders(packages: list[str]) -> list[Path]:
    """Each package's installed source folder, installing the missing ones first."""
    missing = [name for name in packages if importlib.util.find_spec(name) is None]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *missing], check=True)
    importlib.invalidate_caches()
    folders = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        assert spec is not None, name
        locations = list(spec.submodule_search_locations or [])  # a namespace package has no origin
        folders.append(Path(spec.origin).parent if spec.origin is not None else Path(locations[0]))
    return folders


def copy_sources(folder: Path, workdir: Path) -> list[Path]:
    """Copy a package's sources into ``workdir`` to be checked as source files (installed packages
    without ``py.typed`` are skipped by mypy); an implicit namespace package gets an empty
    ``__init__.py``, so mypy names its modules as Python does. Files that do not parse (a syntax
    error shipped in the package, a generated expression nested deeper than Python's parser goes)
    are left out, as mypy would stop at them: returned."""
    copy = Path(shutil.copytree(folder, workdir / folder.name))
    (copy / "__init__.py").touch()
    dropped = []
    for path in sorted(copy.rglob("*.py")):
        try:
            ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, RecursionError):
            path.unlink()
            dropped.append(path.relative_to(workdir))
    return dropped


def findings_settings(select: str, untyped: bool) -> str:
    """The configuration lines of the findings run: the opt-in codes ``select`` names, and, with
    ``untyped``, mypy's ``check_untyped_defs`` (JAX research code often annotates nothing, and
    mypy checks the bodies of unannotated functions only with it)."""
    return (f"enable_error_code = {select}\n" if select else "") + ("check_untyped_defs = True\n" if untyped else "")


def mypy_command(packages: list[str], plugin: bool, workdir: Path, settings: str = "") -> list[str]:
    """mypy over the copied sources (tests excluded), with a fresh cache folder; ``settings``
    (``findings_settings``) added to the plugin's configuration."""
    config = workdir / ("with.ini" if plugin else "without.ini")
    config.write_text(CONFIG + ("plugins = mypy_plugin\n" + settings if plugin else ""))
    cache = tempfile.mkdtemp(dir=workdir)
    return [*packages, "--exclude", r"(_test|/tests?/.*)\.py$", "--config-file", str(config), "--cache-dir", cache]


def run_mypy(packages: list[str], plugin: bool, workdir: Path, settings: str = "") -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and output of one cold mypy run, as a subprocess.

    CPU time (user + system of the child) is what the plugin adds to; unlike wall time it does
    not grow when other processes compete for the machine's cores.
    """
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "mypy", *mypy_command(packages, plugin, workdir, settings)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode not in (0, 1):  # a blocking error: nothing was checked
        sys.exit(f"mypy exited with {result.returncode}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed, cpu, result.stdout + result.stderr


def report_findings(output: str) -> None:
    """Internal errors and the plugin's diagnostics in one run's output."""
    lines = output.splitlines()
    internal = [
        line
        for line in lines
        if INTERNAL_ERROR in line or "INTERNAL ERROR" in line or line.startswith("Traceback (most recent call last)")
    ]
    findings = [line for line in lines if (match := _CODE.search(line)) and match[1] in ERROR_CODES]
    print(f"internal errors: {len(internal)}")
    for line in internal:
        print(f"  {line}")
    print(f"plugin diagnostics: {len(findings)}")
    for line in findings:
        print(f"  {line}")
    print(f"mypy summary: {lines[-1] if lines else '(no output)'}")


def profile_share(packages: list[str], workdir: Path) -> None:
    """Seconds spent inside the plugin during one in-process cold run with it."""
    import mypy.api

    os.chdir(workdir)
    profiler = cProfile.Profile()
    profiler.runcall(mypy.api.run, mypy_command(packages, True, workdir))
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    # Outermost plugin frames only: a plugin function called by another one is already counted.
    inside = sum(
        cumulative
        for (filename, _, _), (_, _, _, cumulative, callers) in stats.stats.items()  # type: ignore[attr-defined]
        if filename.startswith(PLUGIN_DIRECTORY)
        and not any(caller[0].startswith(PLUGIN_DIRECTORY) for caller in callers)
    )
    print(f"profiled run: {total:.1f} s, inside the plugin: {inside:.2f} s ({100 * inside / total:.2f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="interleaved pairs of timed runs (0: findings only)")
    parser.add_argument("--profile", action="store_true", help="also measure the time inside the plugin")
    parser.add_argument("--select", default="", help="opt-in codes to turn on for the findings run (comma-separated)")
    parser.add_argument(
        "--check-untyped-defs", action="store_true", help="the findings run checks unannotated functions' bodies too"
    )
    parser.add_argument("packages", nargs="*", default=list(DEFAULT_PACKAGES))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for folder in source_folders(options.packages):
            for path in copy_sources(folder, workdir):
                print(f"left out (does not parse): {path}")
        settings = findings_settings(options.select, options.check_untyped_defs)
        seconds, _, output = run_mypy(options.packages, True, workdir, settings)
        print(f"checked {', '.join(options.packages)} with the plugin in {seconds:.1f} s")
        report_findings(output)
        times: dict[tuple[str, bool], list[float]] = {
            (kind, plugin): [] for kind in ("wall", "cpu") for plugin in (False, True)
        }
        for run in range(options.runs):
            for plugin in (False, True):
                wall, cpu, _ = run_mypy(options.packages, plugin, workdir)
                times["wall", plugin].append(wall)
                times["cpu", plugin].append(cpu)
                print(
                    f"run {run + 1} {'with' if plugin else 'without'} plugin: {wall:.1f} s wall, {cpu:.1f} s CPU",
                    flush=True,
                )
        for kind in ("wall", "cpu") if options.runs else ():
            without, with_plugin = statistics.median(times[kind, False]), statistics.median(times[kind, True])
            print(
                f"{kind}: median without plugin {without:.1f} s, with {with_plugin:.1f} s, ratio of medians "
                f"{with_plugin / without:.3f}x, of best runs {min(times[kind, True]) / min(times[kind, False]):.3f}x "
                "(goal <= 1.05x)"
            )
        if options.profile:
            profile_share(options.packages, workdir)


if __name__ == "__main__":
    main()
