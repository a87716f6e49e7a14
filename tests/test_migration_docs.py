"""The migration guide's jaxtypes examples are true: each runs as written, and the mypy plugin
reports exactly the ``# E: code`` lines in them (none in the others).

A Python block that imports jaxtypes is an example to check; the "before" blocks, which use
other libraries, run where those libraries are installed, so they show the libraries' real APIs.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from tests.plugin.mypy_runner import REPO, expected, run_mypy, write_config

GUIDE = REPO / "docs" / "migration.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def imports_jaxtypes(block: str) -> bool:
    return re.search(r"^(import|from) jaxtypes\b", block, re.MULTILINE) is not None


ALL_BLOCKS = _BLOCK.findall(GUIDE.read_text())
BLOCKS = [block for block in ALL_BLOCKS if imports_jaxtypes(block)]
BEFORE = [block for block in ALL_BLOCKS if not imports_jaxtypes(block)]


def test_every_section_has_a_runnable_example() -> None:
    sections = GUIDE.read_text().count("\n## From ")
    assert sections == 5
    assert len(BLOCKS) >= sections


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block_runs(index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"block_{index}.py"
    path.write_text(BLOCKS[index])
    runpy.run_path(str(path), run_name=f"migration_block_{index}")
    if expected(BLOCKS[index]):
        # A block showing a bug catches the runtime's error and prints it: same code as mypy's.
        printed = capsys.readouterr().out
        assert all(f"[{code}]" in printed for _, code in expected(BLOCKS[index])), printed


@pytest.mark.parametrize("index", range(len(BEFORE)))
def test_before_block_runs(index: int, tmp_path: Path) -> None:
    for library in re.findall(r"^import (\w+)", BEFORE[index], re.MULTILINE):
        pytest.importorskip(library)
    path = tmp_path / f"before_{index}.py"
    path.write_text(BEFORE[index])
    runpy.run_path(str(path), run_name=f"migration_before_{index}")


def test_plugin_reports_exactly_the_marked_lines(tmp_path: Path) -> None:
    names = []
    for index, block in enumerate(BLOCKS):
        (tmp_path / f"block_{index}.py").write_text(block)
        names.append(f"block_{index}.py")
    write_config(tmp_path)
    found = sorted((d.file, d.line, d.code) for d in run_mypy(tmp_path, *names))
    marked = sorted((f"block_{i}.py", line, code) for i, b in enumerate(BLOCKS) for line, code in expected(b))
    assert found == marked
