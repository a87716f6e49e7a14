"""``@static_dataclass``: frozen, value-hashed, validated, interned classes for jit's static arguments.

Every way of creating an instance (the constructor, ``dataclasses.replace``, ``copy``,
``deepcopy``, unpickling) goes through one constructor that validates the fields, builds the
instance's type-strict key and hands back the one live instance with that key. Equal values
are therefore one object, so an interned class hashes and compares by identity: that *is*
hashing by value (the class included), at the cost of an identity check, however often the
config is rebuilt. A value cannot be freed and rebuilt under a different identity while anything
(a jit cache entry, a dict, a parent config) still holds it. ``intern=False`` classes hash a
key computed once at construction and compare keys.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple, TypeVar, overload

from typing_extensions import dataclass_transform

from jaxtypes.annotations import check_static_field_type, read_field_markers
from jaxtypes.errors import MarkerError, StaticClassError, StaticValueError, class_name
from jaxtypes.fields import field, hashed_by_id
from jaxtypes.interning import InternTable
from jaxtypes.rules import MARKER_MISUSE, STATIC_NOT_FROZEN, STATIC_SUBCLASS
from jaxtypes.values import STATIC_CLASS_FLAG, Identity, Violation, static_key

T = TypeVar("T")


class StaticInfo(NamedTuple):
    """What the constructor needs about a static class, computed once at decoration."""

    init: Callable[..., None]
    fields: tuple[tuple[str, bool], ...]
    table: InternTable | None


@overload
def static_dataclass(cls: type[T], /) -> type[T]: ...
@overload
def static_dataclass(
    *, frozen: bool = True, intern: bool = True, repr: bool = True, kw_only: bool = False
) -> Callable[[type[T]], type[T]]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field, dataclasses.field))
def static_dataclass(
    cls: type[T] | None = None,
    /,
    *,
    frozen: bool = True,
    intern: bool = True,
    repr: bool = True,
    kw_only: bool = False,
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a frozen dataclass usable as a static argument of ``jax.jit``.

    Instances hash and compare by value and by exact class, are validated field by field at
    construction (no arrays, no unhashable or identity-hashed objects, no bound methods, no
    lambdas) and are interned. ``intern=False`` keeps distinct equal instances, for classes
    whose instances are huge and short-lived; equality then compares field by field.
    """

    def wrap(cls: type[T]) -> type[T]:
        return _make_static(cls, frozen=frozen, intern=intern, repr=repr, kw_only=kw_only)

    return wrap if cls is None else wrap(cls)


def _make_static(cls: type[T], *, frozen: bool, intern: bool, repr: bool, kw_only: bool) -> type[T]:
    name = class_name(cls)
    if not frozen:
        raise StaticClassError(
            STATIC_NOT_FROZEN,
            name,
            "is declared static_dataclass(frozen=False)",
            fix="remove frozen=False; change a static value with dataclasses.replace",
            defined_at=cls,
        )
    for base in cls.__mro__[1:]:
        if dataclasses.is_dataclass(base) and not base.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise StaticClassError(
                STATIC_NOT_FROZEN,
                name,
                f"inherits from {class_name(base)}, a dataclass that is not frozen",
                defined_at=cls,
            )
    cls = dataclasses.dataclass(cls, frozen=True, eq=False, repr=repr, kw_only=kw_only)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    init = cls.__dict__["__init__"]
    info = StaticInfo(
        init=init,
        fields=tuple((f.name, hashed_by_id(f)) for f in fields),
        table=InternTable() if intern else None,
    )
    # Flagged before its fields are checked, so a field naming the class itself (a tree of
    # configs) sees a static class, as it will be.
    setattr(cls, STATIC_CLASS_FLAG, info)
    _check_field_types(cls, fields)
    cls.__new__ = staticmethod(_construct)  # type: ignore[method-assign]
    cls.__init__ = _constructed  # type: ignore[method-assign]
    cls.__eq__ = object.__eq__ if intern else _eq  # type: ignore[method-assign]
    cls.__hash__ = object.__hash__ if intern else _hash  # type: ignore[method-assign]
    cls.__reduce__ = _reduce  # type: ignore[method-assign]
    signature = inspect.signature(init)
    cls.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])  # type: ignore[attr-defined]
    return cls


def _check_field_types(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """Reject, at class creation, field types that no static value can have."""
    for f, where, kind, inner in read_field_markers(cls, fields):
        if kind == "dynamic":
            raise MarkerError(
                MARKER_MISUSE,
                where,
                "is marked Dynamic[...] in a static_dataclass, whose fields are all static",
                fix="move the field to a @jaxtypes.pytree_dataclass, which holds the dynamic part",
                defined_at=cls,
            )
        if not hashed_by_id(f):
            check_static_field_type(where, inner, defined_at=cls)


def _construct(cls: type[T], *args: Any, **kwargs: Any) -> T:
    info: StaticInfo | None = cls.__dict__.get(STATIC_CLASS_FLAG)
    if info is None:
        raise StaticClassError(
            STATIC_SUBCLASS,
            class_name(cls),
            "subclasses a static_dataclass without being decorated itself",
            defined_at=cls,
        )
    self = object.__new__(cls)
    info.init(self, *args, **kwargs)
    key = instance_key(self, info)
    if info.table is not None:
        return info.table.intern(key, self)
    object.__setattr__(self, "_jaxtypes_key", key)
    object.__setattr__(self, "_jaxtypes_hash", hash(key))
    return self


def instance_key(instance: Any, info: StaticInfo) -> Hashable:
    """The validated, type-strict key of a freshly initialised static instance."""
    cls = type(instance)
    return (cls, *fields_key(cls, instance.__dict__, info.fields))


def fields_key(cls: type, values: dict[str, Any], fields: tuple[tuple[str, bool], ...]) -> list[Hashable]:
    """The keys of static fields' values (``(name, hash_by_id)`` pairs), validating each.

    The error names ``Class.field`` and the path below it.
    """
    key: list[Hashable] = []
    for name, by_id in fields:
        value = values[name]
        if by_id:
            key.append(Identity(value))
            continue
        try:
            key.append(static_key(value))
        except Violation as violation:
            raise violation.as_error(StaticValueError, f"{class_name(cls)}.{name}", defined_at=cls) from None
    return key


def _constructed(self: object, *args: Any, **kwargs: Any) -> None:
    """``__init__`` of a static class: ``__new__`` already initialised (or found) the instance."""


def _eq(self: Any, other: object) -> bool:
    if self is other:
        return True
    if other.__class__ is not self.__class__:
        return NotImplemented  # type: ignore[no-any-return]
    return bool(self._jaxtypes_key == other._jaxtypes_key)  # type: ignore[attr-defined]


def _hash(self: Any) -> int:
    return self._jaxtypes_hash  # type: ignore[no-any-return]


def _reduce(self: Any) -> tuple[Any, ...]:
    fields = dataclasses.fields(self)
    return (_rebuild, (type(self), {f.name: getattr(self, f.name) for f in fields if f.init}))


def _rebuild(cls: type[T], kwargs: dict[str, Any]) -> T:
    """Recreate a static instance through its constructor (copy, deepcopy and unpickling)."""
    return cls(**kwargs)
