"""A one-line display of how far a long mypy run has got, on a terminal only.

mypy has no progress interface. What ``jaxtypes check`` sees while mypy runs is the report of
each file mypy has checked (``flush_errors``, called in this process for serial runs and for
``-n`` workers' results alike), so the display counts the source files reported out of those
to check. Installed packages are checked first and silently, and the modules of an import
cycle are reported together once all are checked, so the count moves in steps; the elapsed
time shows that mypy is working meanwhile.

Nothing is drawn before ``DELAY`` seconds, so a run that mypy's cache makes quick shows
nothing, and the line is erased when the run ends.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from types import TracebackType
from typing import TextIO

DELAY = 1.0
"""Seconds before the line first appears."""
REDRAW = 0.25
"""Seconds between redraws (the line is only rewritten when its text changes)."""


class Progress:
    """``mypy checked K of N files (T s)`` on ``stream``, redrawn by a thread while in a ``with``."""

    def __init__(self, stream: TextIO, sources: Iterable[str]) -> None:
        self._stream = stream
        self._pending = {os.path.abspath(path) for path in sources}
        self._total = len(self._pending)
        self._start = time.monotonic()
        self._shown = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="jaxtypes-progress", daemon=True)

    def file_done(self, path: str) -> None:
        """mypy reported ``path``: one more source file checked, if it is one."""
        self._pending.discard(os.path.abspath(path))

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()
        if self._shown:
            self._stream.write("\r" + " " * len(self._shown) + "\r")
            self._stream.flush()

    def _line(self) -> str:
        done = self._total - len(self._pending)
        text = f"jaxtypes check: mypy checked {done} of {self._total} files ({time.monotonic() - self._start:.0f} s)"
        return text[: _width(self._stream) - 1]

    def _run(self) -> None:
        if self._stop.wait(DELAY):
            return
        while True:
            text = self._line()
            if text != self._shown:
                # Pad with spaces over a longer previous line: no terminal escape codes needed.
                self._stream.write("\r" + text.ljust(len(self._shown)))
                self._stream.flush()
                self._shown = text
            if self._stop.wait(REDRAW):
                return


def _width(stream: TextIO) -> int:
    """The terminal's width in columns: a longer line would wrap, and ``\\r`` not reach its start."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError):
        return 80
