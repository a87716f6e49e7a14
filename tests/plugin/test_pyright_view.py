"""Without any plugin, pyright-family checkers see both decorators as frozen dataclasses
(``dataclass_transform``): wrong constructor arguments and assignments to fields are errors."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.plugin.mypy_runner import BIN, REPO, expected

SOURCE = """\
import jax
from jaxtypes import Static, pytree_dataclass, static_dataclass

@static_dataclass
class Config:
    size: int

@pytree_dataclass
class State:
    x: jax.Array
    n: Static[int]

config = Config(size="big")  # E: reportArgumentType
config.size = 3  # E: reportAttributeAccessIssue
state = State(jax.numpy.ones(2))  # E: reportCallIssue
state.n = 2  # E: reportAttributeAccessIssue
fine = Config(3), State(jax.numpy.ones(2), 2)
"""

BASEDPYRIGHT = BIN / "basedpyright" if (BIN / "basedpyright").exists() else shutil.which("basedpyright")


@pytest.mark.skipif(BASEDPYRIGHT is None, reason="basedpyright is not installed")
def test_basedpyright_reports_constructor_and_frozen_errors(tmp_path: Path) -> None:
    (tmp_path / "view.py").write_text(SOURCE)
    config = {"extraPaths": [str(REPO)], "typeCheckingMode": "standard"}
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    result = subprocess.run(
        [str(BASEDPYRIGHT), "--pythonpath", str(BIN / "python"), "--outputjson", "view.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(result.stdout)
    found = sorted(
        (d["range"]["start"]["line"] + 1, d.get("rule", ""))
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    )
    assert found == expected(SOURCE)
