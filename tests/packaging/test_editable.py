"""An editable install (``pip install -e .``, as the README's commands do) is visible to the type
checkers from any folder: mypy finds ``jaxtypes`` and loads the plugin, pyright resolves
``jaxtypes``, and both see the checkout's files, edits included.

A copy of the project is installed, so the test leaves the checkout's own build folder alone,
into a fresh virtual environment (``fresh_venv``); mypy and pyright run in a folder outside both.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.packaging.fresh_venv import fresh_venv, run
from tests.plugin.mypy_runner import REPO, parse, write_config

PROJECT_FILES = ["pyproject.toml", "setup.cfg", "README.md", "jaxtypes", "mypy_plugin", "stubs"]

USER_CODE = """\
import jax
from jaxtypes import static_dataclass

@static_dataclass
class Config:
    weights: jax.Array

reveal_type(Config.__init__)
"""

BASEDPYRIGHT = Path(sys.executable).parent / "basedpyright"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    for name in PROJECT_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, root / name)
    return root


@pytest.fixture(scope="module")
def python(checkout: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the editable install of ``checkout``; jax and mypy come from this one."""
    return fresh_venv(tmp_path_factory.mktemp("venv"), "--no-build-isolation", "-e", str(checkout))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "user.py").write_text(USER_CODE)
    write_config(tmp_path)
    return tmp_path


def test_python_imports_the_checkout(python: Path, checkout: Path, project: Path) -> None:
    where = run(
        [str(python), "-c", "import jaxtypes, mypy_plugin; print(jaxtypes.__file__, mypy_plugin.__file__)"], project
    )
    assert where.returncode == 0, where.stderr
    for path in where.stdout.split():
        assert Path(path).resolve().is_relative_to(checkout), path


def test_mypy_finds_jaxtypes_and_the_plugin(python: Path, checkout: Path, project: Path) -> None:
    result = run([str(python), "-m", "mypy", "--no-incremental", "user.py"], project)
    assert "Cannot find implementation or library stub" not in result.stdout, result.stdout
    assert [(d.line, d.code) for d in parse(result.stdout)] == [(6, "static-dynamic-child")]
    assert 'Revealed type is "def (self: user.Config, weights: ' in result.stdout
    # An edit of the checkout is seen without reinstalling.
    init = checkout / "jaxtypes" / "__init__.py"
    original = init.read_text()
    (project / "edited.py").write_text("import jaxtypes\nreveal_type(jaxtypes.EDITED)\n")
    try:
        init.write_text(original + "\nEDITED = 1\n")
        edited = run([str(python), "-m", "mypy", "--no-incremental", "edited.py"], project)
        assert re.search(r'Revealed type is "(builtins\.)?int"', edited.stdout), edited.stdout
    finally:
        init.write_text(original)


@pytest.mark.skipif(not BASEDPYRIGHT.exists(), reason="basedpyright is not installed")
def test_pyright_resolves_jaxtypes(python: Path, project: Path) -> None:
    (project / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard"}))
    result = run([str(BASEDPYRIGHT), "--pythonpath", str(python), "--outputjson", "user.py"], project)
    report = json.loads(result.stdout)
    rules = {d.get("rule") for d in report["generalDiagnostics"]}
    assert "reportMissingImports" not in rules, report
    [revealed] = [d["message"] for d in report["generalDiagnostics"] if d["severity"] == "information"]
    assert "weights: Array" in revealed, revealed
