"""Hash-consing of static values: one live object per distinct value, per class.

Interning makes equal configs identical, so jit's comparison of a rebuilt config against its
cached key is an identity check, and a parent's key compares its children by identity. The
table holds its objects weakly: a config nobody uses any more is freed.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Hashable
from typing import TypeVar

T = TypeVar("T")


class InternTable:
    """A weak ``key -> object`` table whose ``intern`` is atomic across threads."""

    __slots__ = ("_lock", "_objects")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._objects: weakref.WeakValueDictionary[Hashable, object] = weakref.WeakValueDictionary()

    def intern(self, key: Hashable, candidate: T) -> T:
        """The live object stored under ``key``, or ``candidate`` after storing it there."""
        with self._lock:
            existing = self._objects.get(key)
            if existing is not None:
                return existing  # type: ignore[return-value]
            self._objects[key] = candidate
            return candidate

    def __len__(self) -> int:
        return len(self._objects)
