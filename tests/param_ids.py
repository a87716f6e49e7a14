"""Test ids that are the same in every process: a function or method by its qualified name, not
by a repr holding its address, and a set's items in order, not in their hashes' order
(pytest-xdist's workers must collect the same ids)."""

from __future__ import annotations

from typing import Any


def spelled(value: Any) -> str:
    """``value`` as a stable test id."""
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}({', '.join(sorted(map(spelled, value)))})"
    qualname = getattr(value, "__qualname__", None)
    return qualname if callable(value) and isinstance(qualname, str) else repr(value)
