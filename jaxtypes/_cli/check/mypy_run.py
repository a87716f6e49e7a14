"""Running mypy in process with the jaxtypes plugin, on the project's own configuration.

mypy's ``process_options`` finds and reads the configuration exactly as ``mypy`` does
(``--config-file``, mypy.ini, .mypy.ini, pyproject.toml, setup.cfg); the plugin is then added
to the options it returns, so no configuration file is rewritten and paths relative to it keep
their meaning. ``mypy.build.build`` checks with mypy's cache and ``-n`` workers, and mypy's
documented JSON output gives each diagnostic's code, column and end column without parsing text.
mypy's daemon server (``DaemonServer``) is reached here too: the language server keeps one alive.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

from mypy import build
from mypy.build import BuildSource
from mypy.errors import CompileError
from mypy.fscache import FileSystemCache
from mypy.main import process_options
from mypy.options import Options

from jaxtypes._cli.check import UsageError
from jaxtypes._cli.check.findings import Finding, parse_output
from jaxtypes._vocabulary.settings import settings_file

if TYPE_CHECKING:
    from mypy.dmypy_server import Server as DaemonServer

PLUGIN = "mypy_plugin"
PLUGIN_ONLY_CONFIG = Path(__file__).with_name("plugin.ini")


class MypyJob(NamedTuple):
    """What mypy will check, and how: its sources, options and file-system cache.

    ``options.config_file`` names the configuration file whose jaxtypes settings apply: the
    one the plugin reads, so ``jaxtypes check`` reads the same.
    """

    sources: list[BuildSource]
    options: Options
    fscache: FileSystemCache


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


def prepare_mypy(paths: list[str], *, config_file: str | None, cache_dir: str | None, workers: str | None) -> MypyJob:
    """The job that checks ``paths`` (or the configuration's ``files`` when empty) with the plugin."""
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"{path}: no such file or directory")
    args = [*_flag("--config-file", config_file), *_flag("--cache-dir", cache_dir)]
    args += [*_flag("--num-workers", workers), *paths]
    fscache = FileSystemCache()
    sources, options = _options(args, fscache)
    _prepare(options)
    return MypyJob(sources, options, fscache)


def enable_codes(job: MypyJob, codes: Iterable[str]) -> None:
    """Have mypy report ``codes``, which are off unless enabled (the opt-in rules), as its
    ``enable_error_code`` does; mypy reads the list once the plugin has defined the codes."""
    job.options.enable_error_code = [*job.options.enable_error_code, *codes]


def disable_codes(job: MypyJob, codes: Iterable[str]) -> None:
    """Have mypy not report ``codes``, as its ``disable_error_code`` does."""
    job.options.disable_error_code = [*job.options.disable_error_code, *codes]


def run_mypy(job: MypyJob, on_file_done: Callable[[str], None]) -> MypyOutcome:
    """Run mypy; ``on_file_done`` is told each file whose diagnostics mypy has reported.

    mypy reports a file once it has checked it (with no diagnostics too), except files whose
    errors it silences (installed packages) and unchanged files its cache holds no errors for.
    """
    findings: list[Finding] = []
    stopped: list[Finding] = []

    def flush_errors(file: str | None, new: list[str], _serious: bool) -> None:
        findings.extend(parse_output(new))
        if file is not None:
            on_file_done(file)

    def check(output: TextIO) -> None:
        try:
            build.build(
                job.sources,
                job.options,
                flush_errors=flush_errors,
                fscache=job.fscache,
                stdout=output,
                stderr=output,
            )
        except CompileError:
            stopped.extend(findings)

    crash = crash_of(check)
    return MypyOutcome(findings, len(job.sources), stopped, crash)


def crash_of(run: Callable[[TextIO], None]) -> str | None:
    """Run mypy through ``run``, its output captured (and given to ``run`` for mypy's own
    streams); mypy's internal-error report when it crashed, else None."""
    captured = io.StringIO()
    try:
        with redirect_stdout(captured), redirect_stderr(captured):
            run(captured)
    except SystemExit:  # mypy's report of an internal error ends with it
        return captured.getvalue().strip()
    except Exception:  # e.g. an -n worker died; it reported its file on stderr
        return f"{captured.getvalue()}{traceback.format_exc()}".strip()
    return None


def _flag(name: str, value: str | None) -> list[str]:
    return [] if value is None else [name, value]


def daemon_server(options: Options) -> DaemonServer:
    """mypy's daemon server for ``options``, run in process (it writes no status file); imported
    here, as ``jaxtypes check`` never needs it."""
    from mypy.dmypy_server import Server

    return Server(options, status_file=os.devnull)


def _options(args: list[str], fscache: FileSystemCache) -> tuple[list[BuildSource], Options]:
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
    """Name the file of the jaxtypes settings, add the plugin unless the configuration names it,
    ask for JSON diagnostics."""
    # mypy loads plugins only from a configuration file (also in -n workers): without one,
    # name the file holding the jaxtypes settings, else one that holds nothing but the plugin,
    # so mypy's defaults apply as they would have.
    options.config_file = settings_file(options.config_file, Path.cwd()) or str(PLUGIN_ONLY_CONFIG)
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
