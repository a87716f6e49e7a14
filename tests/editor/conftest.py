"""What the editor tests share: a project folder whose mypy configuration loads the plugin."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    return root
