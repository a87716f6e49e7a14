"""Runtime judgement of a value in a static position: its type-strict key, or the rule it breaks.

``static_key`` is the one walk that both validates a static value and builds the key that
static dataclasses hash, compare and intern by. Keys are type-strict (``1``, ``1.0`` and ``True``
differ), ``-0.0`` differs from ``0.0``, and every NaN equals every other NaN, so a key never
merges values that could compile to different code and a config holding NaN still equals
itself.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
from collections.abc import Hashable
from typing import Any, TypeVar

from jaxtypes._classes.errors import JaxtypesError, class_name
from jaxtypes._classes.hashing import (
    compares_by_identity,
    defines_hash,
    hashes_by_identity,
    identity_problem,
    unhashable_problem,
)
from jaxtypes._classes.trusted_types import is_trusted
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import Rule

E = TypeVar("E", bound=JaxtypesError)

STATIC_CLASS_FLAG = "__jaxtypes_static__"
PYTREE_CLASS_FLAG = "__jaxtypes_pytree__"

PLAIN_SCALARS = frozenset({int, bool, str, bytes, type(None)})


class ProblemFound(Exception):
    """A value breaks a rule (``problem``); ``path`` holds the steps from the field down to it."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.what)
        self.problem = problem
        self.path: list[str] = []

    @property
    def rule(self) -> Rule:
        return self.problem.rule

    def as_error(self, error: type[E], where: str, defined_at: object) -> E:
        """The exception to raise: ``where`` names the field or parameter the path starts at."""
        return error(self.problem, where + "".join(self.path), defined_at=defined_at)


class Identity:
    """Key of a value the user vouched for with ``hash_by_id``: hashed and compared by identity."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return type(other) is Identity and other.value is self.value


def is_static_class(cls: type) -> bool:
    """Whether ``cls`` itself (not only a base) was decorated with ``static_dataclass``."""
    return STATIC_CLASS_FLAG in cls.__dict__


def is_pytree_class(cls: type) -> bool:
    """Whether ``cls`` itself was decorated with ``pytree_dataclass``."""
    return PYTREE_CLASS_FLAG in cls.__dict__


def is_array(value: object) -> bool:
    """Whether ``value`` is a jax array, a tracer or a numpy array (without importing either)."""
    jax = sys.modules.get("jax")
    if jax is not None and isinstance(value, jax.Array):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def compares_as_number(value: object) -> bool:
    """Whether ``value`` is a 0-d array that is no tracer: its ``==`` gives one truth value, as
    the number's it holds does (where no jit traces the comparison)."""
    return is_array(value) and getattr(value, "ndim", None) == 0 and "Tracer" not in type(value).__name__


def is_array_type(cls: type) -> bool:
    """``jax.Array``, ``numpy.ndarray`` and their subclasses (without importing either)."""
    jax = sys.modules.get("jax")
    if jax is not None and issubclass(cls, jax.Array):
        return True
    np = sys.modules.get("numpy")
    return np is not None and issubclass(cls, np.ndarray)


def static_key(value: Any) -> Hashable:
    """The type-strict key of a static-safe value; raises ``ProblemFound`` for any other value."""
    cls = type(value)
    if cls in PLAIN_SCALARS:
        return (cls, value)
    if cls is float:
        return (float, repr(value) if value == 0.0 or value != value else value)
    if cls is complex:
        return (complex, static_key(value.real), static_key(value.imag))
    if cls is tuple:
        return (tuple, tuple(_child_key(item, f"[{i}]") for i, item in enumerate(value)))
    if cls is frozenset:
        return (frozenset, frozenset(_child_key(item, "{...}") for item in value))
    if STATIC_CLASS_FLAG in cls.__dict__:
        return value  # type: ignore[no-any-return]
    if isinstance(value, enum.Enum):
        return (cls, value)
    if is_array(value):
        raise ProblemFound(phrases.array_value(cls.__name__, tracer="Tracer" in cls.__name__))
    if PYTREE_CLASS_FLAG in cls.__dict__:
        raise ProblemFound(phrases.pytree_value(class_name(cls)))
    if isinstance(value, tuple):  # a NamedTuple (optax's GradientTransformation) or other subclass
        steps = [f".{name}" for name in getattr(cls, "_fields", ())] or [f"[{i}]" for i in range(len(value))]
        return (cls, tuple(_child_key(item, step) for item, step in zip(value, steps)))
    if isinstance(value, type) or callable(value):
        return _callable_key(value)
    if cls.__hash__ is None:
        return _unhashable(value)
    if dataclasses.is_dataclass(value):
        return _dataclass_key(value)
    if (hashes_by_identity(cls) or compares_by_identity(cls)) and not is_trusted(cls):
        raise ProblemFound(identity_problem(cls, phrases.holding(class_name(cls))))
    return _own_hash_key(value, getattr(value, "__dict__", {}))


def _hashes(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _child_key(value: Any, step: str) -> Hashable:
    try:
        return static_key(value)
    except ProblemFound as found:
        found.path.insert(0, step)
        raise


def _callable_key(value: Any) -> Hashable:
    """Functions and classes are singletons when defined at module level; a bound method is as
    safe as the instance it is bound to."""
    owner = getattr(value, "__self__", None)
    if isinstance(value, types.MethodType) or (
        isinstance(value, types.BuiltinMethodType) and owner is not None and not isinstance(owner, types.ModuleType)
    ):
        if isinstance(owner, type):
            return value
        try:  # as safe as its instance: it hashes and compares the instance and the function
            return (types.MethodType, static_key(owner), getattr(value, "__func__", value.__name__))
        except ProblemFound:
            name = str(getattr(value, "__qualname__", repr(value))).rpartition("<locals>.")[2]
            raise ProblemFound(phrases.bound_method(name, class_name(type(owner)))) from None
    qualname = getattr(value, "__qualname__", "")
    if "<lambda>" in qualname:
        raise ProblemFound(phrases.LAMBDA)
    if "<locals>" in qualname:
        raise ProblemFound(phrases.local_function(qualname))
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        return value
    if dataclasses.is_dataclass(value):
        return _dataclass_key(value)
    if not hashes_by_identity(type(value)) or _is_module_singleton(value) or is_trusted(type(value)):
        return value  # type: ignore[no-any-return]
    if _is_jitted(value):
        raise ProblemFound(phrases.fresh_callable(phrases.A_JITTED_FUNCTION))
    raise ProblemFound(phrases.identity_callable(class_name(type(value))))


def _is_jitted(value: object) -> bool:
    """A function ``jax.jit`` made: it wraps a function and can be lowered."""
    return hasattr(value, "__wrapped__") and callable(getattr(value, "lower", None))


def _is_module_singleton(value: object) -> bool:
    """Whether ``value`` is what its module exports under its own qualified name (``jnp.sin``)."""
    module = sys.modules.get(getattr(value, "__module__", None) or "")
    qualname = getattr(value, "__qualname__", None)
    if module is None or not isinstance(qualname, str):
        return getattr(type(value), "__name__", "") == "ufunc"
    target: object = module
    for part in qualname.split("."):
        target = getattr(target, part, None)
    return target is value


def _unhashable(value: Any) -> Hashable:
    cls = type(value)
    subject = phrases.holding(class_name(cls))
    if dataclasses.is_dataclass(value):
        raise ProblemFound(phrases.not_frozen(subject))
    raise ProblemFound(unhashable_problem(cls, subject))


def _dataclass_key(value: Any) -> Hashable:
    """A frozen stdlib dataclass is static-safe when it hashes by value and so do its fields;
    one with its own ``__eq__`` (``eq=False``) or a trusted one when its own hash works."""
    cls = type(value)
    params = cls.__dataclass_params__
    fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if defines_hash(cls):  # its own __hash__ decides, as for any class
        return _own_hash_key(value, fields)
    if not params.eq and compares_by_identity(cls) and not is_trusted(cls):
        raise ProblemFound(phrases.eq_false_dataclass(phrases.holding(class_name(cls))))
    if not params.frozen and not is_trusted(cls):
        raise ProblemFound(phrases.not_frozen(phrases.holding(class_name(cls))))
    if not params.frozen or not params.eq:
        return _own_hash_key(value, fields)
    return (cls, tuple(_child_key(field, f".{name}") for name, field in fields.items()))


def _own_hash_key(value: Any, parts: dict[str, Any]) -> Hashable:
    """The key of a value that hashes by its class's own ``__hash__``: the value itself, once
    that hash works (what it makes of an array it holds is its own business, as for any trusted
    class); where it fails, the part at fault is named (an array inside an equinox module)."""
    try:
        hash(value)
    except TypeError:
        for name, part in parts.items():
            if not _hashes(part):
                _child_key(part, f".{name}")
        raise ProblemFound(phrases.unhashable(phrases.holding(class_name(type(value))))) from None
    return (type(value), value)
