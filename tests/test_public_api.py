"""What users touch is exported: every public name is in ``__all__`` and ``dir(jaxtypes)``, the
values jaxtypes hands out have exported types, and the version is the installed one."""

from __future__ import annotations

import subprocess
import sys
import warnings
from importlib import metadata
from pathlib import Path

import jax.numpy as jnp

import jaxtypes
from jaxtypes import Static


def test_every_public_name_resolves_and_is_listed() -> None:
    assert sorted(jaxtypes.__all__) == jaxtypes.__all__
    for name in jaxtypes.__all__:
        assert getattr(jaxtypes, name) is not None, name
    assert set(jaxtypes.__all__) <= set(dir(jaxtypes))
    assert not [name for name in dir(jaxtypes) if name.startswith("_") and name != "__version__"]


def test_what_jit_hands_out_has_exported_types() -> None:
    @jaxtypes.jit(warn_on_recompile=True)
    def scale(x: jnp.ndarray, factor: Static[float]) -> jnp.ndarray:
        return x * factor

    scale(jnp.ones(2), 2.0)
    assert isinstance(scale.compiles, jaxtypes.CompileLog)
    assert isinstance(scale.compiles[0], jaxtypes.Compile)
    assert issubclass(jaxtypes.RecompileWarning, UserWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error", jaxtypes.RecompileWarning)
        scale(jnp.ones(2), 3.0)  # a new value: no warning


def test_the_version_is_the_installed_distributions() -> None:
    assert jaxtypes.__version__ == metadata.version("jaxtypes")


def test_importing_jaxtypes_and_its_exports_does_not_import_jax() -> None:
    code = "import sys, jaxtypes; jaxtypes.RecompileWarning; print('jax' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "False", result.stderr


def test_a_checkout_that_was_never_installed_still_imports(tmp_path: Path) -> None:
    """Without the distribution's metadata (a checkout on ``PYTHONPATH``), jaxtypes and its
    plugin import, and say their release is unknown."""
    code = (
        "import importlib.metadata as m\n"
        "def missing(name): raise m.PackageNotFoundError(name)\n"
        "m.version = missing\n"
        "import jaxtypes, mypy_plugin\n"
        "print(jaxtypes.__version__)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.stdout.strip() == "0+uninstalled", result.stderr
