"""jaxtypes: static and runtime safety for ``jax.jit``.

The public names are all here; the code lives in one private subpackage per layer:
``_vocabulary`` (the rule table and the words both halves say, shared with the mypy plugin),
``_classes`` (markers, static and pytree dataclasses, the judgement of values and declared types),
``_jit`` (``jaxtypes.jit``, its compile log, devices, agreement across processes), ``_observe``
(``jaxtypes.audit``, the jit sanitizer) and ``_cli`` (the ``jaxtypes`` command).

Importing jaxtypes does not import jax: ``jit`` and the names of its compile log are loaded on
first use, so the mypy plugin can share the vocabulary without slowing mypy down.
"""

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from jaxtypes._classes import constructors as _constructors
from jaxtypes._classes.errors import (
    DeviceNotFoundError,
    JaxtypesError,
    JitDefinitionError,
    MarkerError,
    RecompileWarning,
    StaleResultError,
    StaticAgreementError,
    StaticClassError,
    StaticValueError,
)
from jaxtypes._classes.fields import field
from jaxtypes._classes.markers import Dynamic, Static
from jaxtypes._classes.pytree import pytree_dataclass
from jaxtypes._classes.static import static_dataclass
from jaxtypes._classes.trusted_types import trusted_static
from jaxtypes._jit.agreement import check_static_agreement
from jaxtypes._jit.fingerprint import static_fingerprint
from jaxtypes._observe.audit import audit
from jaxtypes._vocabulary.release import release

if TYPE_CHECKING:
    from jaxtypes._jit.compile_log import Compile, CompileLog
    from jaxtypes._jit.jaxtypes_jit import Jitted, jit
    from jaxtypes._observe.sanitizer import sanitize

__version__ = release()

__all__ = [
    "Compile",
    "CompileLog",
    "DeviceNotFoundError",
    "Dynamic",
    "JaxtypesError",
    "JitDefinitionError",
    "Jitted",
    "MarkerError",
    "RecompileWarning",
    "StaleResultError",
    "Static",
    "StaticAgreementError",
    "StaticClassError",
    "StaticValueError",
    "audit",
    "check_static_agreement",
    "field",
    "jit",
    "pytree_dataclass",
    "sanitize",
    "static_dataclass",
    "static_fingerprint",
    "trusted_static",
]

_LAZY = {
    "jit": "jaxtypes._jit.jaxtypes_jit",
    "Jitted": "jaxtypes._jit.jaxtypes_jit",
    "CompileLog": "jaxtypes._jit.compile_log",
    "Compile": "jaxtypes._jit.compile_log",
    "sanitize": "jaxtypes._observe.sanitizer",
}
"""Public names whose modules import jax, loaded on first use."""

sys.modules.setdefault("jaxtypes.constructors", _constructors)
"""Pickles written by jaxtypes 0.1.0 name ``jaxtypes.constructors.rebuild``."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'jaxtypes' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])
