"""Where the CLI tests' fixtures are, and the type of the ``check`` fixture that runs the command."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PROJECT = FIXTURES / "project"

Check = Callable[..., subprocess.CompletedProcess[str]]


def project_ini(jaxtypes_section: str = "") -> str:
    """The fixture project's mypy.ini, usable from any folder, with ``jaxtypes_section`` appended.

    Its mypy options are the fixture project's, so runs from other folders share its cache.
    """
    text = (PROJECT / "mypy.ini").read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../..", str(REPO))
    return text + (f"\n[jaxtypes]\n{jaxtypes_section}\n" if jaxtypes_section else "")
