"""Where the CLI tests' fixtures are, and the type of the ``check`` fixture that runs the command."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PROJECT = FIXTURES / "project"

Check = Callable[..., subprocess.CompletedProcess[str]]
