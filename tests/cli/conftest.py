"""Running the real ``jaxtypes check`` in a subprocess, with one mypy cache for the session."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from check_runner import PROJECT, Check


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for every run that shares the same options (a cold run costs seconds)."""
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.fixture(scope="session")
def bare_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the runs in projects without a mypy configuration (mypy's defaults)."""
    return tmp_path_factory.mktemp("mypy-cache-bare")


@pytest.fixture
def check(shared_cache: Path) -> Check:
    """``check(*args, cwd=PROJECT, cache=shared_cache)``: run ``python -m jaxtypes check``."""

    def run(*args: str, cwd: Path = PROJECT, cache: Path = shared_cache) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "jaxtypes", "check", "--cache-dir", str(cache), *args]
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)

    return run
