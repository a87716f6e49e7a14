"""The layers import downwards only: ``jaxtypes check`` reaches the mypy plugin through mypy,
never by importing it, and none of its modules imports jax."""

from __future__ import annotations

import subprocess
import sys

from tests.plugin.mypy_runner import REPO

IMPORT_THE_CHECKER = """\
import importlib, pkgutil, sys
import jaxtypes.check, jaxtypes.cli
for module in pkgutil.iter_modules(jaxtypes.check.__path__):
    importlib.import_module("jaxtypes.check." + module.name)
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_importing_jaxtypes_check_imports_mypy_but_neither_the_plugin_nor_jax() -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_THE_CHECKER], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.split())
    assert "mypy" in loaded
    assert not loaded & {"mypy_plugin", "jax", "jaxlib"}
