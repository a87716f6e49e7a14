"""Trusted static types: classes safe as static values although the usual rules would refuse them.

Two kinds are built in, listed by name in ``jaxtypes._vocabulary.names`` and each measured
(``tests/sweep``):

- ``INTERNED_TYPES``: JAX's classes whose equal values are one object (meshes and partition
  specs are interned, devices are singletons). They keep ``object.__hash__``, but their
  identity *is* their value.
- ``VALUE_TYPES``: other libraries' classes that hash and compare by their fields without being
  frozen dataclasses (equinox modules refuse assignment after ``__init__``; flax modules hash
  their fields). Their own hash is trusted once it works.

Users vouch for their own classes with ``@jaxtypes.trusted_static`` (also callable on a class
from another library), and name third-party classes for the mypy plugin in the
``trusted_static_types`` setting. Trust passes to subclasses, like an inherited ``__hash__``.

The plugin reads the same names; the runtime resolves a name only once the package that
defines it has been imported, so this module imports neither jax nor the other libraries.
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import TypeVar

from jaxtypes._vocabulary.names import TRUSTED_TYPES

T = TypeVar("T", bound=type)

TRUSTED_FLAG = "__jaxtypes_trusted_static__"
"""Set on a class decorated with ``trusted_static`` (one that refuses attributes is kept in
``_trusted`` instead)."""

_trusted: set[type] = set()
_unresolved = set(TRUSTED_TYPES)
_lock = threading.Lock()


def trusted_static(cls: T) -> T:
    """Declare ``cls`` a safe static type: its identity is its value (it interns its instances,
    or they are singletons).

    jaxtypes and its mypy plugin then accept instances of ``cls`` (and of its subclasses) as
    static values although they hash by identity. Use it as a class decorator, or call it on a
    class from another library. It vouches for what jit cannot check: an instance must never
    change after jit has compiled for it, and an equal value must never be built as a second
    object.
    """
    try:
        setattr(cls, TRUSTED_FLAG, True)
    except TypeError:  # a built-in or extension class
        with _lock:
            _trusted.add(cls)
    return cls


def is_trusted(cls: type) -> bool:
    """Whether ``cls`` or a base is vouched for or is one of ``TRUSTED_TYPES``, or ``cls`` is
    an identity token (``holds_no_state``)."""
    if getattr(cls, TRUSTED_FLAG, False) or holds_no_state(cls):
        return True
    if _unresolved:
        _resolve_imported()
    return any(base in _trusted for base in cls.__mro__)


def holds_no_state(cls: type) -> bool:
    """Whether instances of ``cls`` can hold no data: every class but ``object`` declares
    ``__slots__``, empty or only ``__weakref__``. Such an object is an identity token (equinox
    keeps one in a static field on purpose); its identity is all there is to compare."""
    bases = cls.__mro__[:-1]
    return bool(bases) and all(_slot_names(base) <= {"__weakref__"} for base in bases)


def _slot_names(cls: type) -> set[str]:
    """The names a class's own ``__slots__`` declares; ``{"__dict__"}`` where it declares none."""
    slots = cls.__dict__.get("__slots__", ("__dict__",))
    return {slots} if isinstance(slots, str) else set(slots)


def _resolve_imported() -> None:
    """Add the classes of ``TRUSTED_TYPES`` whose package has been imported to ``_trusted``."""
    with _lock:
        for name in [name for name in _unresolved if name.partition(".")[0] in sys.modules]:
            module, _, attribute = name.rpartition(".")
            found = getattr(importlib.import_module(module), attribute, None)
            if isinstance(found, type):
                _trusted.add(found)
            _unresolved.discard(name)
