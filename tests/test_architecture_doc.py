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


def layout_block() -> str:
    return DOC.read_text().partition("## Layout")[2].partition("```\n")[2].partition("```")[0]


NAMES = re.compile(r"(?:[\w.]+(?:\.py|/),?\s*)+")


def test_the_layout_names_every_module_and_only_modules_that_exist() -> None:
    """Each module of both packages is named in the layout, under its folder, and each name there
    is a module or folder that exists."""
    named: set[str] = set()
    folders: list[tuple[int, str]] = []
    for line in layout_block().splitlines():
        indent = len(line) - len(line.lstrip())
        head = line.strip().split("  ")[0]
        if not NAMES.fullmatch(head):
            continue  # a description carried over to the next line
        folders = [(depth, folder) for depth, folder in folders if depth < indent]
        base = "".join(folder for _, folder in folders)
        for name in re.findall(r"[\w.]+(?:\.py|/)", head):
            assert (ROOT / base / name).exists(), base + name
            named.add(base + name)
            if name.endswith("/"):
                folders.append((indent, name))
    modules = {
        path.relative_to(ROOT).as_posix()
        for pattern in ("jaxtypes/*.py", "jaxtypes/*/*.py", "mypy_plugin/*.py")
        for path in ROOT.glob(pattern)
        if path.name != "__init__.py" or path.parent.name in ("jaxtypes", "mypy_plugin")
    }
    assert not sorted(modules - named - {"jaxtypes/__main__.py"})
