"""The jit sanitizer in pytest: ``pytest --jaxtypes-sanitize``, or ``sanitize = true`` in
``[tool.jaxtypes]``; registered through the ``pytest11`` entry point and inactive unless asked.

One sanitizer runs for the whole session, from before collection (functions jitted when test
modules are imported are watched too), and one more for each test: a test whose code produced
findings fails with them. ``@pytest.mark.jaxtypes(max_compiles=N)`` sets a compile budget for
every function the test jits, or ``max_compiles={"name": N}`` for some by name. The session's
findings and its most compiled functions close the terminal summary.

Imports jax only when it is on.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jaxtypes._vocabulary.settings import read_settings, settings_file

_SESSION = pytest.StashKey[Any]()
_MOST_COMPILED = 5


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jaxtypes")
    group.addoption(
        "--jaxtypes-sanitize",
        action="store_true",
        help="run every test under the jit sanitizer: stale results and needless compiles fail the test",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "jaxtypes(max_compiles=N): compile budget of each function the test jits (or a dict by name)"
    )
    if not (config.getoption("jaxtypes_sanitize") or _configured(config)):
        return
    from jaxtypes._observe.sanitizer import HUB, Sanitizer

    session = Sanitizer(strict=False, max_compiles=None)
    HUB.start(session)
    config.stash[_SESSION] = session


def _configured(config: pytest.Config) -> bool:
    path = settings_file(None, Path(config.rootpath))
    return read_settings(path).sanitize if path is not None else False


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        from jaxtypes._observe.sanitizer import HUB

        HUB.stop(session)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if item.config.stash.get(_SESSION, None) is None:
        yield
        return
    from jaxtypes._observe.sanitizer import HUB, Sanitizer

    marker = item.get_closest_marker("jaxtypes")
    sanitizer = Sanitizer(strict=False, max_compiles=marker.kwargs.get("max_compiles") if marker else None)
    HUB.start(sanitizer)
    try:
        outcome = yield
    finally:
        HUB.stop(sanitizer)
    findings = sanitizer.report.findings
    session = item.config.stash[_SESSION]
    for finding in findings:  # a budget's, or jit-fresh-function's, is the test's own
        session.report.add(finding)
    if findings and outcome.excinfo is None:
        text = "\n\n".join(map(str, findings))
        outcome.force_exception(
            pytest.fail.Exception(f"jaxtypes sanitizer: {len(findings)} finding(s)\n\n{text}", pytrace=False)
        )


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is None:
        return
    report = session.report
    write = terminalreporter.write_line
    terminalreporter.section("jaxtypes sanitizer")
    counts: dict[str, int] = {}
    for finding in report.findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    if counts:
        write("findings: " + ", ".join(f"{code} {count}" for code, count in sorted(counts.items())))
    else:
        write("no findings")
    most = sorted(report.compiles.items(), key=lambda item: -item[1])[:_MOST_COMPILED]
    if most:
        write("most compiled: " + ", ".join(f"{name} {count}" for name, count in most))
