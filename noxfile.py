"""The declared support, tested at both ends: ``nox`` (``.ci/run`` calls it after the full suite).

The full suite runs once, on the main interpreter with the newest jax and mypy (the README's test
command). These sessions run a focused subset (``FOCUSED``), with two pytest-xdist workers as
there, at each end of every declared range:

- ``oldest``: the oldest supported Python, with the oldest allowed jax, jaxlib and mypy;
- ``oldest-python``: the oldest supported Python, with the newest jax and mypy that install on
  it (what a new user of that Python gets: jax stops supporting a Python before we do);
- ``newest``: the newest supported Python, with the newest jax and mypy that install on it.

The ends are read from ``pyproject.toml``: the Python classifiers (which
``tests/packaging/test_declared_support.py`` keeps in line with ``requires-python``) and the
``>=`` bounds of the dependencies. Interpreters come from pyenv where it is installed (its
newest patch release of each version), otherwise from ``PATH``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nox
from packaging.requirements import Requirement

PYPROJECT = nox.project.load_toml("pyproject.toml")
PYTHONS = nox.project.python_versions(PYPROJECT)
OLDEST_PINNED = ("jax", "jaxlib", "mypy")

FOCUSED = [
    "tests/runtime",
    "tests/plugin/test_class_rules.py",
    "tests/plugin/test_jaxtypes_jit.py",
    "tests/plugin/test_plain_jax.py",
    "tests/plugin/test_seed_examples.py",
    "tests/plugin/test_modes.py::test_cold_then_warm_after_editing_dependency_and_caller",
    "tests/plugin/test_modes.py::test_other_modes_match_plain_mypy[parallel]",
    "tests/plugin/test_modes.py::test_daemon_follows_edits",
    "tests/plugin/test_modes.py::test_the_recorded_facts_add_no_error_of_their_own",
    "tests/test_seed_examples.py",
    "tests/cli/test_check.py",
    "tests/faults",
    "tests/packaging/test_declared_support.py",
    "tests/packaging/test_hooked_names.py",
    "tests/packaging/test_import_layers.py",
]
"""What differs between the ends of the declared ranges: the runtime against jax, the plugin's
rules, hooks and incremental modes (cold, warm after an edit, ``-n 2``, the daemon) against mypy,
the linter's reading of mypy's output, and the fault corpus. The suite's other files (the
editors, the benchmarks, the generated suites, the wheel) run once, on the main interpreter."""

nox.options.sessions = ["oldest", "oldest-python", "newest"]
nox.options.error_on_missing_interpreters = True
nox.options.default_venv_backend = "uv|virtualenv"
"""uv where it is installed (``.ci/run`` installs it): pip's resolver backtracks for tens of
minutes through the oldest jax's dependants (flax, orbax-checkpoint), which uv settles in seconds."""


def interpreter(version: str) -> str:
    """``python<version>``: pyenv's newest patch release of it if pyenv has one, else from PATH.

    pyenv's shims on PATH only answer for the versions selected with ``pyenv global``, so the
    interpreters are taken from its versions folder directly.
    """
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    patch = re.compile(rf"{re.escape(version)}\.(\d+)")
    installed = {}
    for folder in root.glob(f"versions/{version}.*"):
        found = patch.fullmatch(folder.name)
        if found and (folder / "bin" / f"python{version}").exists():
            installed[int(found.group(1))] = folder / "bin" / f"python{version}"
    return str(installed[max(installed)]) if installed else f"python{version}"


def oldest_allowed(name: str) -> str:
    """``name==X`` for the dependency declared as ``name>=X``."""
    for line in PYPROJECT["project"]["dependencies"]:
        requirement = Requirement(line)
        if requirement.name == name:
            [lower] = [spec.version for spec in requirement.specifier if spec.operator == ">="]
            return f"{name}=={lower}"
    raise LookupError(f"{name} is not a dependency in pyproject.toml")


def run_focused(session: nox.Session, *pins: str) -> None:
    session.install("-e", ".[test]", *pins)
    session.run(
        "python",
        "-c",
        "import sys, jax, mypy.version; print(sys.version, 'jax', jax.__version__, 'mypy', mypy.version.__version__)",
    )
    session.run("python", "-m", "pytest", "-q", "-n", "2", *(session.posargs or FOCUSED))


@nox.session(python=interpreter(PYTHONS[0]))
def oldest(session: nox.Session) -> None:
    """The oldest supported Python with the oldest allowed jax, jaxlib and mypy."""
    run_focused(session, *map(oldest_allowed, OLDEST_PINNED))


@nox.session(python=interpreter(PYTHONS[0]), name="oldest-python")
def oldest_python(session: nox.Session) -> None:
    """The oldest supported Python with the newest jax and mypy that install on it."""
    run_focused(session)


@nox.session(python=interpreter(PYTHONS[-1]))
def newest(session: nox.Session) -> None:
    """The newest supported Python with the newest jax and mypy."""
    run_focused(session)
