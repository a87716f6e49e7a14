"""A fresh virtual environment for installing jaxtypes into, offline: it borrows this environment's
packages (jax, mypy, setuptools) through a ``.pth`` file, so only jaxtypes itself is installed."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` with no path to the checkout in its environment."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def fresh_venv(root: Path, *install: str) -> Path:
    """A venv at ``root`` with ``pip install --no-deps --no-index <install>`` done; its python."""
    venv.create(root, with_pip=False)
    python = root / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], root).stdout.strip())
    (site / "outer.pth").write_text(sysconfig.get_path("purelib") + "\n")
    command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", *install]
    result = run(command, root)
    assert result.returncode == 0, result.stdout + result.stderr
    return python
