"""How instances of a class hash and compare: by value, by identity, or not at all.

Python's rules, read from the class: ``object.__hash__`` and ``object.__eq__`` are identity, a
class that defines ``__eq__`` without ``__hash__`` is unhashable, and a dataclass's generated
``__hash__`` is not one the class wrote. The twin of the mypy plugin's ``hashing``; asked by the
judgement of values (``static_values``) and of declared types (``declared_types``).
"""

from __future__ import annotations

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import UNHASHABLE_FIXES


def hashes_by_identity(cls: type) -> bool:
    """Whether instances of ``cls`` use ``object.__hash__``: equal copies hash differently."""
    return cls.__hash__ is object.__hash__  # type: ignore[comparison-overlap]


def defines_hash(cls: type) -> bool:
    """Whether a dataclass keeps a ``__hash__`` written for it, which then decides, as for any
    class: not one the dataclass or attrs decorator made (they build their methods with ``exec``,
    from ``<string>`` or ``<attrs generated hash ...>``; ``unsafe_hash`` hashes fields that can
    change), nor ``object``'s."""
    hash_fn = cls.__hash__
    made = str(getattr(getattr(hash_fn, "__code__", None), "co_filename", "")).startswith("<")
    return hash_fn is not None and not hashes_by_identity(cls) and not made


def compares_by_identity(cls: type) -> bool:
    """Whether instances of ``cls`` use ``object.__eq__``: equal copies are unequal to jit's cache,
    whatever their hash (``@dataclass(frozen=True, eq=False, unsafe_hash=True)``)."""
    return cls.__eq__ is object.__eq__  # type: ignore[comparison-overlap]


def identity_problem(cls: type, subject: str) -> Problem:
    """The problem of a class that keeps ``object.__hash__`` or ``object.__eq__``: equal copies are
    different keys to jit either way."""
    if hashes_by_identity(cls):
        return phrases.identity_hash(subject)
    return phrases.hash_without_eq(subject)


def unhashable_problem(cls: type, subject: str) -> Problem:
    """Why instances of ``cls`` (whose ``__hash__`` is None) are unhashable, with the fix: a
    builtin's own (a tuple for a list), or a class's that defines ``__eq__`` without ``__hash__``."""
    builtin = next(
        (base for base in cls.__mro__ if base.__module__ == "builtins" and base.__name__ in UNHASHABLE_FIXES), None
    )
    if builtin is not None:
        return phrases.unhashable(subject, builtin.__name__)
    owner = next((base for base in cls.__mro__ if "__hash__" in base.__dict__), cls)
    if "__eq__" in owner.__dict__:
        return phrases.eq_without_hash(subject)
    return phrases.unhashable(subject)
