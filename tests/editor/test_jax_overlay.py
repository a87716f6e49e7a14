"""``stubs/jax/__init__.pyi``, the opt-in pyright overlay, makes pyright check calls of plainly
jitted functions, which jax's own types leave unchecked; and every name it re-exports is the
object ``jax`` itself exports under that name, so it hides nothing else.
"""

from __future__ import annotations

import ast
import importlib
import json
import shutil
import subprocess
from pathlib import Path

import jax
import pytest

from tests.plugin.mypy_runner import BIN, REPO, expected

OVERLAY = REPO / "stubs" / "jax" / "__init__.pyi"

SOURCE = """\
from functools import partial
import jax
import jax.numpy as jnp

def scale(x: jax.Array, factor: int) -> jax.Array:
    return x * factor

scaled = jax.jit(scale, static_argnums=1)
scaled(jnp.ones(2), "twice")  # E: reportArgumentType
by_name = partial(jax.jit, static_argnames="factor")(scale)
by_name(jnp.ones(2), factor=2.5)  # E: reportArgumentType
total: jax.Array = scaled(jnp.ones(2), 2)
text: str = scaled(jnp.ones(2), 2)  # E: reportAssignmentType
"""

BASEDPYRIGHT = BIN / "basedpyright" if (BIN / "basedpyright").exists() else shutil.which("basedpyright")


def pyright_errors(directory: Path, config: dict[str, object]) -> list[tuple[int, str]]:
    """basedpyright's errors on ``view.py`` in ``directory`` as ``(line, rule)``."""
    (directory / "view.py").write_text(SOURCE)
    (directory / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "standard", **config}))
    result = subprocess.run(
        [str(BASEDPYRIGHT), "--pythonpath", str(BIN / "python"), "--outputjson", "view.py"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(result.stdout)
    return sorted(
        (d["range"]["start"]["line"] + 1, d.get("rule", ""))
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    )


@pytest.mark.skipif(BASEDPYRIGHT is None, reason="basedpyright is not installed")
def test_overlay_makes_jitted_calls_checked(tmp_path: Path) -> None:
    assert pyright_errors(tmp_path, {}) == []
    assert pyright_errors(tmp_path, {"stubPath": str(REPO / "stubs")}) == expected(SOURCE)


def test_reexports_are_jax_own_objects() -> None:
    imports = [node for node in ast.parse(OVERLAY.read_text()).body if isinstance(node, ast.ImportFrom)]
    reexports = [(node.module, alias.name) for node in imports for alias in node.names if alias.asname == alias.name]
    assert reexports
    for module, name in reexports:
        assert getattr(importlib.import_module(str(module)), name) is getattr(jax, name), name
