"""What the runtime and the plugin each say about a generated unit, in one shape: findings.

A finding is ``(element index, target, code)``: the target is a field name, or ``""`` for the
element as a whole (a class-level rule, an inherited field, a call, a jitted function). The
runtime gives at most one per unit (it stops at the first error); the plugin gives every one
it sees. Each side's words for a finding are kept beside it, as the two sides print them
without their frame: the headline, then why and the fix, one per line (the runtime's without
the ``[code]`` and ``defined at:``, mypy's without the file, line and code).
"""

from __future__ import annotations

import itertools
import re
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol, TypeVar

from jaxtypes._classes.errors import JaxtypesError
from jaxtypes._vocabulary.rules import RULES_BY_CODE
from tests.differential.modules import COMMON, COMMON_MODULE, CallSpec, ClassSpec, JitSpec, Lines, Unit
from tests.plugin.mypy_runner import check_in_process, plugin_words
from tests.source_modules import import_path


L = TypeVar("L", covariant=True)


class Finding(NamedTuple):
    element: int
    target: str
    code: str


class RuntimeVerdict(NamedTuple):
    """The first error importing a unit raised (None if it imported cleanly), where it said it was,
    its whole message, and its words (``words``)."""

    finding: Finding | None
    defined_line: int | None
    message: str
    said: str


_PARAMETER = re.compile(r"parameter '(?P<param>\w+)' of (?P<fn>[\w.]+)")
_DEFINED_AT = re.compile(r"defined at: (?P<file>.+):(?P<line>\d+)$")
_fresh_names = itertools.count()


class Source(Protocol[L]):
    """A generated module: its text and its line table."""

    def source(self) -> tuple[str, L]: ...


def write(directory: Path, units: Sequence[Source[L]]) -> list[tuple[Path, L]]:
    """Write the helper module and each unit into ``directory/units``; returns each unit's path
    and line table."""
    directory = directory / "units"
    directory.mkdir()
    (directory / f"{COMMON_MODULE}.py").write_text(COMMON)
    written = []
    for index, unit in enumerate(units):
        text, lines = unit.source()
        path = directory / f"unit{index}.py"
        path.write_text(text)
        written.append((path, lines))
    return written


def runtime_verdict(path: Path, unit: Unit, lines: list[Lines]) -> RuntimeVerdict:
    """Import ``path`` as a fresh module (a new name each time) and read the first error it raises."""
    name = f"jaxtypes_dx_{next(_fresh_names)}_{path.stem}"
    sys.path.insert(0, str(path.parent))
    try:
        import_path(path, name)
    except Exception as raised:  # classified below; anything else fails the test
        error = raised.__cause__ if isinstance(raised, RuntimeError) else raised
        if not isinstance(error, JaxtypesError):
            raise
        raised_at = [
            frame.lineno for frame in traceback.extract_tb(raised.__traceback__) if frame.filename == str(path)
        ]
        location = _DEFINED_AT.search(str(error))
        return RuntimeVerdict(
            _locate_runtime(error, unit, lines, raised_at[-1] if raised_at else None),
            int(location["line"]) if location and location["file"] == str(path) else None,
            str(error),
            words(error).replace(f"{name}.", f"{path.stem}."),  # the module as mypy names it
        )
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop(name, None)
    return RuntimeVerdict(None, None, "", "")


def words(error: JaxtypesError) -> str:
    """An error's message laid out as mypy prints the plugin's (``plugin_words``), without what
    mypy does not print: the ``[code]`` after the headline and the definition's ``file:line``."""
    return plugin_words(error.message)


def _locate_runtime(error: JaxtypesError, unit: Unit, lines: list[Lines], raised_at: int | None) -> Finding:
    """Which element (and field or parameter) an error's ``where`` names."""
    for index, element in enumerate(unit.elements):
        if isinstance(element, CallSpec) and raised_at == lines[index].first:
            return Finding(index, "", error.code)
    parameter = _PARAMETER.match(error.where)
    owner = parameter["fn"] if parameter else error.where.split(".")[0]
    for index, element in enumerate(unit.elements):
        if isinstance(element, JitSpec) and element.name == owner:
            return Finding(index, "", error.code)
        if isinstance(element, ClassSpec) and element.name == owner:
            field = re.split(r"[.\[{]", error.where.partition(".")[2])[0]
            inherited = field not in dict(element.fields)
            return Finding(index, "" if inherited else field, error.code)
    raise AssertionError(f"runtime error names nothing generated: {error}")


def plugin_verdict(paths: list[Path], cache_dir: Path) -> dict[str, list[tuple[int, str, str]]]:
    """mypy with the plugin, in process, on the units' directory at once: jaxtypes diagnostics
    (line, code, message) by file name."""
    found: dict[str, list[tuple[int, str, str]]] = {path.name: [] for path in paths}
    for diagnostic in check_in_process(paths[0].parent, cache_dir):
        if diagnostic.code in RULES_BY_CODE and diagnostic.file in found:
            found[diagnostic.file].append((diagnostic.line, diagnostic.code, diagnostic.message))
    return found


def locate_plugin(diagnostics: list[tuple[int, str, str]], unit: Unit, lines: list[Lines]) -> dict[Finding, set[str]]:
    """Each plugin diagnostic as a finding on the element whose lines contain it, with its messages."""
    findings: dict[Finding, set[str]] = {}
    for line, code, message in diagnostics:
        index = next(i for i, where in enumerate(lines) if where.first <= line <= where.last)
        element = unit.elements[index]
        field = ""
        if isinstance(element, ClassSpec):
            field = next((name for name, at in lines[index].fields.items() if at == line), "")
        findings.setdefault(Finding(index, field, code), set()).add(message)
    return findings
