"""Hash-consing of static values: one live object per distinct value, per class.

Interning makes equal configs identical, so jit's comparison of a rebuilt config against its
cached key is an identity check, and a parent's key compares its children by identity. The
table holds its objects weakly: a config nobody uses any more is freed, and its entry with it.
"""

from __future__ import annotations

import weakref

# CPython's atomic "delete this key if its value is a dead weak reference", the primitive that
# weakref.WeakValueDictionary is built on.
from _weakref import _remove_dead_weakref  # type: ignore[attr-defined]
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class _Entry(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its key, so that its callback can remove it."""

    __slots__ = ("key",)
    key: Hashable


class InternTable:
    """A weak ``key -> object`` table whose ``intern`` is atomic across threads, without a lock.

    Every change is one atomic dict operation: an entry is added only where there is none
    (``setdefault``) and removed only once its object is dead, so no thread can replace or
    remove a live entry another thread relies on. A compiled constructor runs the fast paths
    inline (``lookup_source``, ``store_source``) and calls ``intern`` only after losing a race,
    or on meeting the entry of a freed object whose removal has not run yet.
    """

    __slots__ = ("_entries", "_on_free")

    def __init__(self) -> None:
        entries: dict[Hashable, _Entry] = {}
        self._entries = entries

        # ``remove`` is bound when defined, so that it is still there while the interpreter exits.
        def on_free(entry: _Entry, remove: Callable[..., None] = _remove_dead_weakref) -> None:
            remove(entries, entry.key)

        self._on_free = on_free

    def lookup_source(self, key: str, namespace: dict[str, Any]) -> list[str]:
        """Lines that return the live object stored under the key named ``key``, if any."""
        namespace["__jt_get"] = self._entries.get
        return [
            f"__jt_entry = __jt_get({key})",
            "if __jt_entry is not None:",
            "    __jt_found = __jt_entry()",
            "    if __jt_found is not None: return __jt_found",
        ]

    def store_source(self, key: str, candidate: str, namespace: dict[str, Any]) -> list[str]:
        """Lines that return ``intern(key, candidate)``, storing an absent key without a call."""
        namespace.update(
            __jt_entry_type=_Entry,
            __jt_on_free=self._on_free,
            __jt_add=self._entries.setdefault,
            __jt_intern=self.intern,
        )
        return [
            f"__jt_entry = __jt_entry_type({candidate}, __jt_on_free)",
            f"__jt_entry.key = {key}",
            f"if __jt_add({key}, __jt_entry) is __jt_entry: return {candidate}",
            f"return __jt_intern({key}, {candidate})",
        ]

    def intern(self, key: Hashable, candidate: T) -> T:
        """The live object stored under ``key``, or ``candidate`` after storing it there."""
        entry = _Entry(candidate, self._on_free)
        entry.key = key
        while True:
            existing = self._entries.setdefault(key, entry)
            if existing is entry:
                return candidate
            found: Any = existing()
            if found is not None:
                return found  # type: ignore[no-any-return]
            _remove_dead_weakref(self._entries, key)  # its object was freed; its callback is pending

    def __len__(self) -> int:
        """How many entries the table holds: its live objects, once pending removals have run."""
        return len(self._entries)
