"""jaxtypes: static and runtime safety for ``jax.jit``.

Importing jaxtypes does not import jax: ``jit`` and ``Jitted`` are loaded on first use, so the
mypy plugin can share the rule vocabulary in ``jaxtypes.rules`` without slowing mypy down.
"""

from typing import TYPE_CHECKING, Any

from jaxtypes.agreement import check_static_agreement
from jaxtypes.audit import audit
from jaxtypes.errors import (
    DeviceNotFoundError,
    JaxtypesError,
    JitDefinitionError,
    MarkerError,
    StaticAgreementError,
    StaticClassError,
    StaticValueError,
)
from jaxtypes.fields import field
from jaxtypes.fingerprint import static_fingerprint
from jaxtypes.markers import Dynamic, Static
from jaxtypes.pytree import pytree_dataclass
from jaxtypes.static import static_dataclass
from jaxtypes.trusted import trusted_static

if TYPE_CHECKING:
    from jaxtypes.jitted import Jitted, jit

__version__ = "0.1.0"

__all__ = [
    "DeviceNotFoundError",
    "Dynamic",
    "JaxtypesError",
    "JitDefinitionError",
    "Jitted",
    "MarkerError",
    "Static",
    "StaticAgreementError",
    "StaticClassError",
    "StaticValueError",
    "audit",
    "check_static_agreement",
    "field",
    "jit",
    "pytree_dataclass",
    "static_dataclass",
    "static_fingerprint",
    "trusted_static",
]


def __getattr__(name: str) -> Any:
    if name in ("jit", "Jitted"):
        from jaxtypes import jitted

        return getattr(jitted, name)
    raise AttributeError(f"module 'jaxtypes' has no attribute {name!r}")
