"""mypy's fine-grained build of a project, kept alive from one analysis to the next as mypy's daemon
keeps it, so an edit re-checks what depends on the edit, not every module of its import cycle.

mypy's daemon server (``dmypy_server.Server``) runs in process: its first check builds the
project from scratch with the plugin; each later one finds the files changed since (by size and
time, then by hash; a file the editor saved, by its hash whatever its size and time), follows the
imports of the files it is given, updates the build and reports
every module's diagnostics again. A build is only good for the configuration it was made with:
mypy's options (compared as the daemon compares them) and the jaxtypes settings the plugin reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from mypy import errorcodes
from mypy.errorcodes import ErrorCode
from mypy.options import Options

from jaxtypes._cli.check.findings import parse_output
from jaxtypes._cli.check.mypy_run import BuildSource, MypyOutcome, crash_of, daemon_server
from jaxtypes._vocabulary.settings import Settings

UNSHOWN_CODES = sorted(
    value.code for value in vars(errorcodes).values() if isinstance(value, ErrorCode) and value is not errorcodes.MISC
)
"""mypy's own error codes, which the server never shows, turned off: each update checks again every
target with an error, and a project's ordinary mypy errors would have it check dozens every time.
``misc`` stays on, the code of the plugin's internal errors; blocking errors cannot be turned off."""

STOPPED = 2
"""The daemon's status for a build that an error stopped (a syntax error, a missing module)."""


class LiveBuild:
    """One project's build under one configuration, updated by each check."""

    def __init__(self, options: Options, settings: Settings) -> None:
        self._server = daemon_server(options)
        # An internal error ends as it ends `jaxtypes check` (its report, then SystemExit), not
        # in the exception the daemon raises to answer its client.
        options.raise_exceptions = False
        self._settings = settings

    def serves(self, options: Options, settings: Settings) -> bool:
        """Whether the build was made for these options and settings."""
        return settings == self._settings and options.compare_stable(self._server.options_snapshot)

    def check(self, sources: list[BuildSource], saved: Iterable[Path] = ()) -> MypyOutcome:
        """Check ``sources`` and what they import, again only where something changed: the
        ``saved`` files whatever their size and time say. The daemon compares a file's time to
        the second, so a save within the second of the last check that keeps the file's size
        (one name for another of its length, or content read while the file was being written)
        would go unseen; forgotten by its file watcher, such a file is read and hashed anew."""
        watcher = getattr(self._server, "fswatcher", None)  # made by the first check
        again = {path.resolve() for path in saved}
        if watcher is not None:
            watcher.remove_watched_paths(
                [source.path for source in sources if source.path is not None and Path(source.path).resolve() in again]
            )
        answer: dict[str, Any] = {}

        def check(_output: TextIO) -> None:
            answer.update(self._server.check(sources, export_types=False, is_tty=False, terminal_width=0))

        crash = crash_of(check)
        findings = parse_output(f"{answer.get('out', '')}{answer.get('err', '')}".splitlines())
        update = self._server.fine_grained_manager
        blocked = answer.get("status") == STOPPED or (update is not None and update.blocking_error is not None)
        return MypyOutcome(findings, len(sources), findings if blocked else [], crash)
