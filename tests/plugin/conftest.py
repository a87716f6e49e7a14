"""Shared fixtures of the plugin tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache dir per test module, so jax's stubs are analysed once."""
    return tmp_path_factory.mktemp("mypy_cache")
