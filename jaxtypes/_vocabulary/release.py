"""The installed jaxtypes release, written once, in ``pyproject.toml``, and read from the
distribution's metadata; a checkout on the import path that was never installed has none."""

from __future__ import annotations

from importlib import metadata

UNINSTALLED = "0+uninstalled"


def release() -> str:
    """The version of the installed jaxtypes distribution, or ``UNINSTALLED``."""
    try:
        return metadata.version("jaxtypes")
    except metadata.PackageNotFoundError:
        return UNINSTALLED
