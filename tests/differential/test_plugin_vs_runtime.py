"""The plugin and the runtime agree on generated modules, up to the divergences table.

Each example writes a few unit modules (see ``modules``), imports each in a fresh module
namespace to get the runtime's first error, runs mypy with the plugin once over all of them,
and compares unit by unit (``compare``): the same findings, in the same words; a class's error
must say where the class is defined. A disagreement no entry of ``divergences.DIVERGENCES``
explains fails the test with the unit's source. Example count: ``budget`` (``JAXTYPES_TEST_EXAMPLES``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given

from tests.differential.budget import generated
from tests.differential.compare import compare
from tests.differential.divergences import AFTER_FIRST_ERROR, classify
from tests.differential.modules import ClassSpec, Unit, examples
from tests.differential.verdicts import locate_plugin, plugin_verdict, runtime_verdict, write


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy_cache")


@generated(20)
@given(units=examples())
def test_plugin_and_runtime_agree(units: list[Unit], cache_dir: Path) -> None:
    with tempfile.TemporaryDirectory() as directory:
        written = write(Path(directory), units)
        plugin = plugin_verdict([path for path, _ in written], cache_dir)
        for unit, (path, lines) in zip(units, written):
            runtime = runtime_verdict(path, unit, lines)
            source = path.read_text()
            if runtime.finding is not None and isinstance(unit.elements[runtime.finding.element], ClassSpec):
                where = lines[runtime.finding.element]
                assert runtime.defined_line is not None, runtime.message
                assert where.first <= runtime.defined_line <= where.last, (runtime.message, source)
            comparison = compare(unit, runtime.finding, runtime.said, locate_plugin(plugin[path.name], unit, lines))
            for finding in comparison.unverified:
                event(f"unverified: {AFTER_FIRST_ERROR}", finding.code)
            for case in comparison.disagreements:
                kind = classify(case)
                assert kind is not None, (
                    f"{case.side} only: {case.finding} (runtime: {runtime.message or 'no error'})\n{source}"
                    if case.side != "both"
                    else f"{case.finding} in other words:\n  runtime: {case.runtime_said}\n  plugin:  {case.plugin_said}\n{source}"
                )
                event(f"divergence: {kind}", case.finding.code)
