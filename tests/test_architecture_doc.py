"""``docs/architecture.md`` names, for each check, the runtime's function and the plugin's twin:
every file and function its table names exists, so the table follows the code it maps."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TOKEN = re.compile(r"`([^`]+)`")


def defined_names(path: Path) -> set[str]:
    """Top-level functions and classes of a module, and ``Class.method`` for their methods."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{item.name}" for item in node.body if isinstance(item, ast.FunctionDef)}
    return names


def twin_rows() -> list[tuple[str, str, str]]:
    """The table's rows: the check, the runtime's cell, the plugin's cell."""
    section = DOC.read_text().partition("## Each check and its twin")[2].partition("\n\n")[2]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and not set(cells[0]) <= {"-", " "} and cells[0] != "check":
            rows.append((cells[0], cells[2], cells[3]))
    return rows


def named(cell: str, package: str) -> list[tuple[Path, str]]:
    """Each function a cell names, with the module named before it (in ``package``)."""
    found = []
    module: Path | None = None
    for token in TOKEN.findall(cell):
        if token.endswith(".py"):
            module = ROOT / package / token
            assert module.exists(), f"{package}/{token}"
        elif module is not None:
            found.append((module, token))
    return found


def test_the_table_covers_each_check() -> None:
    assert len(twin_rows()) >= 15


def test_every_function_the_table_names_exists() -> None:
    missing = []
    for check, runtime, plugin in twin_rows():
        pairs = [*named(runtime, "jaxtypes"), *named(plugin, "mypy_plugin")]
        assert pairs, check
        missing += [f"{check}: {path.name} {name}" for path, name in pairs if name not in defined_names(path)]
    assert not missing, missing
