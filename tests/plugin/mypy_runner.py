"""Running real mypy (in process, as a subprocess, as the daemon) and reading its diagnostics.

Every plugin test goes through here, so all modes parse output the same way and can be compared.
Expected errors are written in the checked source as ``# E: <code>`` comments on their line.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import mypy.api

from jaxtypes._vocabulary.rules import FIX, WHY, Message

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

if str(REPO) not in sys.path:
    # The plugin must be importable by name; an editable install made before mypy_plugin/
    # existed maps it as a namespace package, so put the checkout first.
    sys.path.insert(0, str(REPO))

CONFIG = "[mypy]\nplugins = mypy_plugin\n"

_DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+\.py):(?P<line>\d+): error: (?P<message>.*?)  \[(?P<code>[a-z-]+)\]$")
_NOTE = re.compile(r"^(?P<file>[^:\n]+\.py):(?P<line>\d+): note: (?P<note>.*)$")
_EXPECTED = re.compile(r"#\s*E:\s*(?P<codes>[A-Za-z-]+(?:\s*,\s*[A-Za-z-]+)*)")


@functools.cache
def _jit_is_a_decorator_factory() -> bool:
    import jax

    try:
        jax.jit(static_argnums=0)
    except TypeError:
        return False
    return True


def for_installed_jax(source: str) -> str:
    """``source`` spelled for the installed jax, with the same findings on the same lines.

    ``@jax.jit(static_argnums=...)`` needs jax 0.8.1 or later (before, jit requires the function
    and mypy reports ``call-arg``); for older jax it becomes
    ``@functools.partial(jax.jit, static_argnums=...)``, so ``source`` must import functools.
    """
    if _jit_is_a_decorator_factory():
        return source
    return source.replace("@jax.jit(static_", "@functools.partial(jax.jit, static_")


class Diagnostic(NamedTuple):
    """One error: file name (not path), line, code and message: the error's headline and the
    ``note:`` lines that follow it at its line (why and the fix), one per line."""

    file: str
    line: int
    code: str
    message: str


def parse(output: str) -> list[Diagnostic]:
    """The errors in mypy's (or dmypy's) normal output, sorted."""
    found: list[Diagnostic] = []
    for line in output.splitlines():
        match = _DIAGNOSTIC.match(line.strip())
        note = _NOTE.match(line.strip())
        if match:
            name = Path(match["file"]).name
            found.append(Diagnostic(name, int(match["line"]), match["code"], match["message"]))
        elif note and found and (Path(note["file"]).name, int(note["line"])) == found[-1][:2] and _explains(note):
            found[-1] = found[-1]._replace(message=f"{found[-1].message}\n{note['note']}")
    return sorted(found)


def _explains(note: re.Match[str]) -> bool:
    """A plugin finding's ``why:`` or ``fix:`` line (not one of mypy's own notes, which mypy gives
    once a run, so they differ between modes)."""
    return note["note"].startswith((WHY, FIX))


def plugin_words(message: Message) -> str:
    """A message as ``parse`` gives the plugin's: the headline, then its notes, one per line."""
    return "\n".join([message.headline, *message.notes()])


def expected(source: str) -> list[tuple[int, str]]:
    """The ``(line, code)`` pairs announced by ``# E: code`` comments in ``source``."""
    pairs = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = _EXPECTED.search(line)
        if match:
            pairs.extend((number, code.strip()) for code in match["codes"].split(","))
    return sorted(pairs)


def write_config(directory: Path, extra: str = "") -> Path:
    """A ``mypy.ini`` enabling the plugin, plus ``extra`` lines."""
    path = directory / "mypy.ini"
    path.write_text(CONFIG + extra)
    return path


def check_in_process(path: Path, cache_dir: Path, *args: str, extra_config: str = "") -> list[Diagnostic]:
    """Run mypy in this process on one file (its folder holds the ``mypy.ini``, plus
    ``extra_config``); the cache dir is shared to keep jax warm."""
    config = write_config(path.parent, extra_config)
    stdout, stderr, status = mypy.api.run(
        [str(path), "--config-file", str(config), "--cache-dir", str(cache_dir), *args]
    )
    assert status in (0, 1), stdout + stderr
    assert "internal error" not in stdout + stderr, stdout + stderr
    return parse(stdout)


def environment() -> dict[str, str]:
    """This environment, with the checkout first on the import path (the plugin is imported by name)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_mypy(project: Path, *args: str) -> list[Diagnostic]:
    """``mypy`` as a subprocess in ``project`` (cache in ``project/.mypy_cache``)."""
    return _run(project, [str(BIN / "mypy"), *args])


def run_dmypy(project: Path, status_file: Path, *args: str) -> list[Diagnostic]:
    """``dmypy --status-file X <args>`` as a subprocess in ``project``."""
    return _run(project, [str(BIN / "dmypy"), "--status-file", str(status_file), *args])


def _run(project: Path, command: list[str]) -> list[Diagnostic]:
    result = subprocess.run(command, cwd=project, env=environment(), capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode in (0, 1), output
    assert "internal error" not in output and "Traceback" not in output, output
    return parse(output)
