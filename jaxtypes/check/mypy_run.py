"""Running mypy in process with the jaxtypes plugin, on the project's own configuration.

mypy's ``process_options`` finds and reads the configuration exactly as ``mypy`` does
(``--config-file``, mypy.ini, .mypy.ini, pyproject.toml, setup.cfg); the plugin is then added
to the options it returns, so no configuration file is rewritten and paths relative to it keep
their meaning. ``mypy.build.build`` checks with mypy's cache and ``-n`` workers, and mypy's
documented JSON output gives each diagnostic's code, column and end column without parsing text.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import NamedTuple

from mypy import build
from mypy.errors import CompileError
from mypy.fscache import FileSystemCache
from mypy.main import process_options
from mypy.options import Options

from jaxtypes.check import UsageError
from jaxtypes.check.findings import Finding, parse

PLUGIN = "mypy_plugin"
PLUGIN_ONLY_CONFIG = Path(__file__).with_name("plugin.ini")


class MypyOutcome(NamedTuple):
    """What one mypy run produced.

    ``stopped`` holds the diagnostics of an error that stopped mypy before it checked
    everything (a syntax error, an unusable configuration); ``crash`` mypy's internal-error
    report, which names the file being checked.
    """

    findings: list[Finding]
    files_checked: int
    stopped: list[Finding]
    crash: str | None


def run_mypy(
    paths: list[str], *, config_file: str | None, cache_dir: str | None, workers: str | None
) -> MypyOutcome:
    """Check ``paths`` (or the configuration's ``files`` when empty) with mypy and the plugin."""
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"{path}: no such file or directory")
    args = [*_flag("--config-file", config_file), *_flag("--cache-dir", cache_dir)]
    args += [*_flag("--num-workers", workers), *paths]
    fscache = FileSystemCache()
    sources, options = _options(args, fscache)
    _prepare(options)

    findings: list[Finding] = []
    stopped: list[Finding] = []
    crash = None
    captured = io.StringIO()
    try:
        with redirect_stdout(captured), redirect_stderr(captured):
            build.build(
                sources,
                options,
                flush_errors=lambda _file, new, _serious: findings.extend(map(parse, new)),
                fscache=fscache,
                stdout=captured,
                stderr=captured,
            )
    except CompileError:
        stopped = findings
    except SystemExit:  # mypy's report of an internal error ends with it
        crash = captured.getvalue().strip()
    except Exception:  # noqa: BLE001 (e.g. an -n worker died; it reported its file on stderr)
        crash = f"{captured.getvalue()}{traceback.format_exc()}".strip()
    return MypyOutcome(findings, len(sources), stopped, crash)


def _flag(name: str, value: str | None) -> list[str]:
    return [] if value is None else [name, value]


def _options(args: list[str], fscache: FileSystemCache) -> tuple[list[build.BuildSource], Options]:
    """mypy's sources and options for ``args`` and the configuration it finds."""
    messages = io.StringIO()
    try:
        with redirect_stdout(messages), redirect_stderr(messages):
            sources, options = process_options(args, stdout=messages, stderr=messages, fscache=fscache)
    except SystemExit:
        lines = messages.getvalue().strip().splitlines() or ["mypy rejected the options"]
        raise UsageError(lines[-1].removeprefix("mypy: ").removeprefix("error: ")) from None
    sys.stderr.write(messages.getvalue())  # mypy's warnings about the configuration
    return sources, options


def _prepare(options: Options) -> None:
    """Add the plugin unless the configuration names it, ask for JSON diagnostics."""
    if options.config_file is None:
        # mypy loads plugins only from a configuration file (also in -n workers): name one
        # that holds nothing but the plugin, so mypy's defaults apply as they would have.
        options.config_file = str(PLUGIN_ONLY_CONFIG)
    if not any(name.split(":")[0] == PLUGIN for name in options.plugins):
        options.plugins.append(PLUGIN)
    options.output = "json"
    options.pretty = False
    options.color_output = False
    options.hide_error_codes = False
    options.show_traceback = True
    if options.num_workers:
        if options.cache_dir == os.devnull:
            raise UsageError("-n needs mypy's cache: do not set cache_dir to /dev/null")
        # As `mypy -n` requires; partial-type inference does not change the plugin's findings.
        options.native_parser = True
        options.local_partial_types = True

