"""``@static_dataclass``: frozen, value-hashed, validated, interned classes for jit's static arguments.

Every way of creating an instance (the constructor, ``dataclasses.replace``, ``copy``,
``deepcopy``, unpickling) goes through one constructor, ``__new__``, compiled for the class: it
validates the fields while building the instance's type-strict key from the arguments, and hands
back the one live instance with that key, building a new one only when there is none. Equal values
are therefore one object, so an interned class hashes and compares by identity: that *is*
hashing by value (the class included), at the cost of an identity check, however often the
config is rebuilt. A value cannot be freed and rebuilt under a different identity while anything
(a jit cache entry, a dict, a parent config) still holds it. ``intern=False`` classes hash a
key computed once at construction and compare keys.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, NamedTuple, NoReturn, TypeVar, overload

from typing_extensions import dataclass_transform

from jaxtypes._classes.constructors import ConstructorSource, reduce_through_constructor
from jaxtypes._classes.declared_types import check_static_field_type, read_field_markers
from jaxtypes._classes.errors import MarkerError, StaticClassError, class_name
from jaxtypes._classes.fields import field, hashed_by_id
from jaxtypes._classes.interning import InternTable
from jaxtypes._classes.static_values import STATIC_CLASS_FLAG
from jaxtypes._vocabulary import phrases

T = TypeVar("T")


class StaticInfo(NamedTuple):
    """What the constructor needs about a static class, computed once at decoration."""

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
        raise StaticClassError(phrases.DECLARED_NOT_FROZEN, name, defined_at=cls)
    for base in cls.__mro__[1:]:
        if dataclasses.is_dataclass(base) and not base.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise StaticClassError(phrases.inherits_not_frozen(class_name(base)), name, defined_at=cls)
    own_init = "__init__" in cls.__dict__  # the dataclass keeps an __init__ the class wrote
    cls = dataclasses.dataclass(cls, frozen=True, eq=False, repr=repr, kw_only=kw_only)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    init = cls.__dict__["__init__"]
    info = StaticInfo(
        fields=tuple((f.name, hashed_by_id(f)) for f in fields),
        table=InternTable() if intern else None,
    )
    # Flagged before its fields are checked, so a field naming the class itself (a tree of
    # configs) sees a static class, as it will be.
    setattr(cls, STATIC_CLASS_FLAG, info)
    _check_field_types(cls, fields)
    cls.__new__ = staticmethod(_compile_new(cls, init, info, own_init=own_init))  # type: ignore[method-assign]
    # object's own __init__, which ignores the arguments when __new__ is the class's own: the
    # instance __new__ returns is already built (or was found in the table).
    cls.__init__ = object.__init__  # type: ignore[method-assign]
    cls.__eq__ = object.__eq__ if intern else _eq  # type: ignore[method-assign]
    cls.__hash__ = object.__hash__ if intern else _hash  # type: ignore[method-assign]
    cls.__reduce__ = reduce_through_constructor  # type: ignore[method-assign]
    signature = inspect.signature(init)
    cls.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])  # type: ignore[attr-defined]
    return cls


def _check_field_types(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """Reject, at class creation, field types that no static value can have."""
    for f, where, kind, inner in read_field_markers(cls, fields):
        if kind == "dynamic":
            raise MarkerError(phrases.DYNAMIC_IN_STATIC, where, defined_at=cls)
        if not hashed_by_id(f):
            check_static_field_type(where, inner, defined_at=cls)


def _compile_new(cls: type, init: Callable[..., None], info: StaticInfo, *, own_init: bool) -> Callable[..., Any]:
    """The class's ``__new__``: key the arguments, return the live equal instance or build one.

    The key is built from the arguments before any instance exists, unless the class's own
    ``__init__``, ``__post_init__`` or an ``init=False`` field decides final values: then the
    instance is built first.
    """
    source = ConstructorSource(cls, init, own_init=own_init)
    source.namespace.update(__jt_refuse=_refuse_subclass, __jt_new=object.__new__, __jt_hash=hash)
    build = ["__jt_self = __jt_new(__jt_cls)", *source.build("__jt_self")]
    key = f"__jt_key = {source.key(info.fields, '__jt_self')}"
    body = ["if __jt_cls is not __jt_owner: __jt_refuse(__jt_cls, __jt_owner)", *source.head]
    if info.table is None:
        body += [*build, key]
        body += [
            "__jt_setattr(__jt_self, '_jaxtypes_key', __jt_key)",
            "__jt_setattr(__jt_self, '_jaxtypes_hash', __jt_hash(__jt_key))",
            "return __jt_self",
        ]
        return source.compile("__new__", "__jt_cls", body)
    lookup = info.table.lookup_source("__jt_key", source.namespace)
    body += [key, *lookup, *build] if source.values_known_before_build else [*build, key, *lookup]
    body += info.table.store_source("__jt_key", "__jt_self", source.namespace)
    return source.compile("__new__", "__jt_cls", body)


def _refuse_subclass(cls: type, static: type) -> NoReturn:
    """``cls`` inherits the constructor of the static class ``static`` without being decorated."""
    raise StaticClassError(phrases.undecorated_subclass(class_name(static)), class_name(cls), defined_at=cls)


def _eq(self: Any, other: object) -> bool:
    if self is other:
        return True
    if other.__class__ is not self.__class__:
        return NotImplemented  # type: ignore[no-any-return]
    return bool(self._jaxtypes_key == other._jaxtypes_key)  # type: ignore[attr-defined]


def _hash(self: Any) -> int:
    return self._jaxtypes_hash  # type: ignore[no-any-return]
