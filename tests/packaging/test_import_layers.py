"""The layers import downwards only: ``jaxtypes check`` reaches the mypy plugin through mypy,
never by importing it, and none of its modules imports jax."""

from __future__ import annotations

import ast
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


PLUGIN_INTERFACE = ("mypy.plugin", "mypy.nodes", "mypy.types", "mypy.options", "mypy.errorcodes")
"""The mypy modules any module may import: the plugin interface and the node and type classes it
hands over. Anything else of mypy goes through one door per half."""

MYPY_DOORS = {"mypy_plugin/mypy_internals.py", "jaxtypes/check/mypy_run.py"}
JAX_DOOR = "jaxtypes/jax_internals.py"


def test_mypy_and_jax_internals_are_reached_through_their_adapters() -> None:
    strays = []
    for path in sorted([*REPO.glob("jaxtypes/**/*.py"), *REPO.glob("mypy_plugin/*.py")]):
        name = path.relative_to(REPO).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                modules = [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []
            for module in modules:
                private_mypy = module.startswith("mypy.") and not module.startswith(PLUGIN_INTERFACE)
                if private_mypy and isinstance(node, (ast.Import, ast.ImportFrom)) and name not in MYPY_DOORS:
                    strays.append(f"{name}:{node.lineno}: {module}")
                if module.startswith("jax._src") and name != JAX_DOOR:
                    strays.append(f"{name}:{getattr(node, 'lineno', '?')}: {module}")
    assert not strays, "\n".join(strays)
