"""The wheel built from the checkout is complete and works on its own: installed into a fresh
virtual environment (offline, reusing this environment's jax and mypy through a ``.pth`` file),
``jaxtypes`` imports, ``jaxtypes check`` reports the plugin's code, and mypy loads the plugin
from the wheel, not from the checkout.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from tests.packaging.fresh_venv import fresh_venv, run
from tests.plugin.mypy_runner import REPO, parse, write_config

BAD = """\
import jax
from jaxtypes import static_dataclass

@static_dataclass
class Config:
    weights: jax.Array
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        str(out),
        str(REPO),
    ]
    result = run(build, out)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = out.glob("jaxtypes-*.whl")
    return built


@pytest.fixture(scope="module")
def env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the wheel; jax and mypy come from this environment, after it."""
    root = tmp_path_factory.mktemp("venv")
    fresh_venv(root, str(wheel))
    return root


def test_wheel_ships_the_packages_marker_and_stubs(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "jaxtypes/py.typed" in names
    assert "jaxtypes_stubs/jax/__init__.pyi" in names
    for package in ("jaxtypes", "mypy_plugin"):
        for init in (REPO / package).rglob("__init__.py"):
            assert init.relative_to(REPO).as_posix() in names
        for module in (REPO / package).rglob("*.py"):
            assert module.relative_to(REPO).as_posix() in names


def test_installed_wheel_is_used_not_the_checkout(env: Path, tmp_path: Path) -> None:
    where = run(
        [
            str(env / "bin" / "python"),
            "-c",
            "import jaxtypes, mypy_plugin, jax; print(jaxtypes.__file__, mypy_plugin.__file__)",
        ],
        tmp_path,
    )
    assert where.returncode == 0, where.stderr
    for path in where.stdout.split():
        assert Path(path).is_relative_to(env), path


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bad file and a mypy.ini naming the plugin; both checks share its mypy cache."""
    root = tmp_path_factory.mktemp("project")
    (root / "bad.py").write_text(BAD)
    write_config(root)
    return root


def test_jaxtypes_check_reports_the_plugin_code(env: Path, project: Path) -> None:
    result = run([str(env / "bin" / "jaxtypes"), "check", "bad.py"], project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "bad.py:6:5: static-dynamic-child" in result.stdout


# mypy imports the plugin in process: after the run, sys.modules says which file it loaded.
MYPY_THEN_PLUGIN_PATH = """\
import sys, mypy.api
print(mypy.api.run(["bad.py"])[0])
print(sys.modules["mypy_plugin"].__file__)
"""


def test_mypy_loads_the_plugin_from_the_wheel(env: Path, project: Path) -> None:
    result = run([str(env / "bin" / "python"), "-c", MYPY_THEN_PLUGIN_PATH], project)
    assert result.returncode == 0, result.stderr
    *report, plugin = result.stdout.strip().splitlines()
    assert [(d.line, d.code) for d in parse("\n".join(report))] == [(6, "static-dynamic-child")]
    assert Path(plugin).is_relative_to(env), plugin
