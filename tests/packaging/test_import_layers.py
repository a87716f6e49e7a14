"""The layers import downwards only, and each dependency's internals are reached through one door.

The vocabulary imports only the vocabulary; the mypy plugin imports only the vocabulary from
jaxtypes; nothing imports the command line; ``jaxtypes check`` reaches the plugin through mypy,
never by importing it, and none of its modules imports jax. No module imports itself back
through another (no import cycles).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.plugin.mypy_runner import REPO

IMPORT_THE_CHECKER = """\
import importlib, pkgutil, sys
import jaxtypes._cli
for module in pkgutil.walk_packages(jaxtypes._cli.__path__, "jaxtypes._cli."):
    importlib.import_module(module.name)
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""

LAYERS = ("_vocabulary", "_classes", "_jit", "_observe", "_cli")
"""jaxtypes' subpackages from the bottom up: each imports only from those before it."""


def source_files(*patterns: str) -> list[Path]:
    return sorted(path for pattern in patterns for path in REPO.glob(pattern))


def imported_modules(path: Path, nodes: list[ast.stmt] | None = None) -> list[tuple[int, str]]:
    """Every module an ``import`` in ``path`` names (or in ``nodes`` of it), relative imports
    resolved, with its line."""
    package = path.relative_to(REPO).with_suffix("").parts[:-1]
    found = []
    for node in nodes if nodes is not None else ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found += [(node.lineno, module)]
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def module_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements that run when the module is imported: its body and the bodies of its
    top-level ``if`` blocks (``if TYPE_CHECKING:`` too: a type checker follows those), not its
    functions'."""
    found: list[ast.stmt] = []
    for node in tree.body:
        found += [node, *(module_level(ast.Module(node.body + node.orelse, [])) if isinstance(node, ast.If) else [])]
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "jaxtypes" and parts[1] in LAYERS else None


def test_importing_jaxtypes_check_imports_mypy_but_neither_the_plugin_nor_jax() -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_THE_CHECKER], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.split())
    assert "mypy" in loaded
    assert not loaded & {"mypy_plugin", "jax", "jaxlib"}


def test_each_layer_imports_only_the_layers_below_it() -> None:
    strays = []
    for path in source_files("jaxtypes/_*/**/*.py"):
        own = LAYERS.index(path.relative_to(REPO).parts[1])
        for line, module in imported_modules(path):
            layer = layer_of(module)
            if layer is not None and LAYERS.index(layer) > own:
                strays.append(f"{path.relative_to(REPO)}:{line}: {module}")
    assert not strays, "\n".join(strays)


def test_the_vocabulary_imports_nothing_but_itself_and_the_standard_library() -> None:
    strays = []
    for path in source_files("jaxtypes/_vocabulary/*.py"):
        for line, module in imported_modules(path):
            top = module.split(".")[0]
            if top in {"jax", "jaxlib", "mypy", "mypy_plugin", "numpy"} or (
                top == "jaxtypes" and layer_of(module) != "_vocabulary"
            ):
                strays.append(f"{path.relative_to(REPO)}:{line}: {module}")
    assert not strays, "\n".join(strays)


def test_the_plugin_imports_only_the_vocabulary_from_jaxtypes() -> None:
    strays = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in source_files("mypy_plugin/*.py")
        for line, module in imported_modules(path)
        if module.split(".")[0] == "jaxtypes" and module != "jaxtypes" and layer_of(module) != "_vocabulary"
    ]
    assert not strays, "\n".join(strays)


def test_nothing_outside_the_command_line_imports_it() -> None:
    strays = [
        f"{path.relative_to(REPO)}:{line}: {module}"
        for path in source_files("jaxtypes/**/*.py", "mypy_plugin/*.py")
        if "_cli" not in path.relative_to(REPO).parts and path.name != "__main__.py"
        for line, module in imported_modules(path)
        if layer_of(module) == "_cli"
    ]
    assert not strays, "\n".join(strays)


def test_no_import_cycles() -> None:
    """Module-level imports (``TYPE_CHECKING`` ones included): a function-level import is a
    deliberate delay, not a cycle."""
    paths = source_files("jaxtypes/**/*.py", "mypy_plugin/*.py")
    modules = {".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = set()
        for _, module in imported_modules(path, module_level(ast.parse(path.read_text()))):
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module not in ("", name, "jaxtypes", "mypy_plugin"):
                graph[name].add(module)
    cycles: list[str] = []
    state: dict[str, str] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for following in sorted(graph[node]):
            if state.get(following) == "open":
                cycles.append(" -> ".join([*trail[trail.index(following) :], following]))
            elif following not in state:
                visit(following, [*trail, following])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "\n".join(cycles)


PLUGIN_INTERFACE = ("mypy.plugin", "mypy.nodes", "mypy.types", "mypy.options", "mypy.errorcodes")
"""The mypy modules any module may import: the plugin interface and the node and type classes it
hands over. Anything else of mypy goes through one door per half."""

MYPY_DOORS = {"mypy_plugin/mypy_internals.py", "jaxtypes/_cli/check/mypy_run.py"}
JAX_DOOR = "jaxtypes/_jit/jax_internals.py"
JAX_NAMES = "jaxtypes/_vocabulary/names.py"
"""The names the plugin hooks, where jax defines them: strings only, imported by nothing."""


def test_mypy_and_jax_internals_are_reached_through_their_adapters() -> None:
    strays = []
    for path in source_files("jaxtypes/**/*.py", "mypy_plugin/*.py"):
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
                imported = isinstance(node, (ast.Import, ast.ImportFrom))
                if module.startswith("jax._src") and name != JAX_DOOR and (imported or name != JAX_NAMES):
                    strays.append(f"{name}:{getattr(node, 'lineno', '?')}: {module}")
    assert not strays, "\n".join(strays)
