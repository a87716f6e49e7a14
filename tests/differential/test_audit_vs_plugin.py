"""``jaxtypes.audit`` and the plugin agree on generated classes of other libraries.

Each example writes a few units (``library_units``), runs mypy with the plugin once over them,
and audits each unit's instance: the ``(field, code)`` sets must be equal. Example count:
``budget`` (``JAXTYPES_TEST_EXAMPLES``).
"""

from __future__ import annotations

import itertools
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import event, given

import jaxtypes
from tests.differential.budget import generated
from tests.differential.library_units import LibraryUnit, library_examples
from tests.differential.verdicts import plugin_verdict, write
from tests.source_modules import import_path

_fresh = itertools.count()


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy_cache")


def audited(path: Path) -> set[tuple[str, str]]:
    """The audit of the unit's instance, as (field, code)."""
    name = f"jaxtypes_dx_library_{next(_fresh)}"
    sys.path.insert(0, str(path.parent))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # equinox warns of an array it is given as static
            module = import_path(path, name)
        return {
            (error.where.split(".")[1].split(" ")[0], error.code) for error in jaxtypes.audit(module.instance, "unit")
        }
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop(name, None)


@generated(10)
@given(units=library_examples())
def test_audit_and_plugin_agree(units: list[LibraryUnit], cache_dir: Path) -> None:
    with tempfile.TemporaryDirectory() as directory:
        written = write(Path(directory), units)
        plugin = plugin_verdict([path for path, _ in written], cache_dir)
        for unit, (path, lines) in zip(units, written):
            found = {(lines[line], code) for line, code, _ in plugin[path.name]}
            assert found == audited(path), path.read_text()
            for _, code in found:
                event(f"{unit.library}: {code}")
