"""Importing a source file as the module ``name``, registered in ``sys.modules`` as ``import`` does.

Dataclasses and pickling look classes up through ``sys.modules``; a module whose import fails
is removed again, as ``import`` removes it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def import_path(path: Path, name: str | None = None) -> ModuleType:
    """Execute ``path`` as a fresh module named ``name`` (default: the file's stem)."""
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
