"""Runtime judgement of a declared type in a static position: fine, or the rule it breaks.

The declared-type twin of ``static_values.static_key``, and the runtime twin of the plugin's
``declared_types``: a field of a static dataclass, a ``Static`` field of a pytree dataclass and a
``Static`` parameter of a jitted function are all checked here, once, when the class or function
is defined.
"""

from __future__ import annotations

import builtins
import collections.abc
import abc
import dataclasses
import enum
import inspect
import sys
import types
import typing
from collections.abc import Iterable, Iterator
from typing import Any

from jaxtypes._classes.errors import StaticClassError, class_name
from jaxtypes._classes.hashing import (
    compares_by_identity,
    defines_hash,
    hashes_by_identity,
    identity_problem,
    unhashable_problem,
)
from jaxtypes._classes.markers import read_marker, spell
from jaxtypes._classes.static_values import ProblemFound, is_array_type, is_pytree_class, is_static_class
from jaxtypes._classes.trusted_types import is_trusted
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.positions import MarkerKind


def check_static_type(hint: Any) -> None:
    """Raise ``ProblemFound`` if a value of type ``hint`` can never be a correct static value.

    Looks through unions, tuples, frozensets and ``Annotated``; classes that might have static
    subclasses (``object``, protocols, abstract classes) are given the benefit of the doubt,
    since the value check at construction sees the real object.
    """
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        check_static_type(hint.__origin__)
        return
    if origin in (typing.Union, types.UnionType, tuple, frozenset, type):
        if origin is not type:
            for arg in typing.get_args(hint):
                if arg is not Ellipsis:
                    check_static_type(arg)
        return
    cls = origin if isinstance(origin, type) else hint
    if not isinstance(cls, type):
        return
    if cls in (list, set, dict):
        raise ProblemFound(phrases.unhashable(phrases.typed(spell(hint)), cls.__name__))
    if is_array_type(cls):
        raise ProblemFound(phrases.array_type(spell(hint)))
    subject = phrases.typed(class_name(cls))
    if is_pytree_class(cls):
        raise ProblemFound(phrases.pytree_type(class_name(cls)))
    if cls is types.MethodType:
        raise ProblemFound(phrases.BOUND_METHOD_TYPE)
    if is_static_class(cls) or cls is object or is_open(cls):
        return
    if declared_eq_false(cls) and compares_by_identity(cls) and not is_trusted(cls) and not defines_hash(cls):
        raise ProblemFound(phrases.eq_false_dataclass(subject))
    if not declared_frozen(cls) and not is_trusted(cls) and not defines_hash(cls):
        raise ProblemFound(phrases.not_frozen(subject))
    if cls.__hash__ is None:
        raise ProblemFound(unhashable_problem(cls, subject))
    if dataclasses.is_dataclass(cls) and compares_by_identity(cls) and not is_trusted(cls):
        raise ProblemFound(phrases.identity_hash(subject))
    by_identity = hashes_by_identity(cls) or (compares_by_identity(cls) and not issubclass(cls, enum.Enum))
    if by_identity and cls.__module__ != "builtins" and not is_trusted(cls):
        raise ProblemFound(identity_problem(cls, subject))


def declared_eq_false(cls: type) -> bool:
    """Whether a stdlib dataclass is declared ``eq=False``: it generates no ``__eq__`` or
    ``__hash__``, and keeps what its bases have (``object``'s: identity)."""
    return dataclasses.is_dataclass(cls) and not cls.__dataclass_params__.eq  # type: ignore[attr-defined]


def declared_frozen(cls: type) -> bool:
    """Whether a stdlib dataclass or an attrs class is frozen (attrs says so in its class
    properties since 25.4); True for other classes, whose hashing decides."""
    if dataclasses.is_dataclass(cls):
        return bool(cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return bool(getattr(getattr(cls, "__attrs_props__", None), "is_frozen", True))


def check_static_field_type(where: str, hint: Any, defined_at: object) -> None:
    """``check_static_type`` for a named field or parameter, raising ``StaticClassError``."""
    try:
        check_static_type(hint)
    except ProblemFound as found:
        raise found.as_error(StaticClassError, where, defined_at) from None


def read_field_markers(
    cls: type, fields: Iterable[dataclasses.Field[Any]]
) -> Iterator[tuple[dataclasses.Field[Any], str, MarkerKind | None, Any]]:
    """Each field with its ``Class.field`` name, its marker and the type inside the marker.

    Annotations are resolved in the class's module; names not defined yet stay forward
    references (see ``resolve_hint``).
    """
    module = sys.modules.get(cls.__module__)
    globalns = dict(vars(module)) if module else {}
    localns = {cls.__name__: cls}
    for f in fields:
        where = f"{class_name(cls)}.{f.name}"
        kind, inner = read_marker(resolve_hint(f.type, globalns, localns), where, defined_at=cls)
        yield f, where, kind, inner


def is_open(cls: type) -> bool:
    """Classes whose instances may well be static subclasses: protocols and abstract bases."""
    return bool(getattr(cls, "_is_protocol", False)) or is_abstract(cls) or cls.__module__ == "typing"


def is_abstract(cls: type) -> bool:
    """A class with abstract methods, or declared an abstract base itself (``abc.ABC`` among its
    bases, ``metaclass=ABCMeta``, which no base brings): its values are its subclasses'
    instances, judged when one is seen. A concrete class that derives from one is judged as
    itself."""
    declared = type(cls) is abc.ABCMeta and not any(type(base) is abc.ABCMeta for base in cls.__bases__)
    return inspect.isabstract(cls) or abc.ABC in cls.__bases__ or declared


def resolve_hint(annotation: Any, globalns: dict[str, Any], localns: dict[str, Any] | None = None) -> Any:
    """Evaluate one annotation like ``typing.get_type_hints(include_extras=True)`` does.

    Works on string annotations (``from __future__ import annotations``); a name that is not
    defined (yet) becomes a ``typing.ForwardRef`` inside the result instead of failing, so the
    markers around it can still be read and ``forward_refs`` can tell what is missing. A
    quoted name nested in the annotation (``Static["Node"]``) is evaluated the same way.
    """
    return _resolve(annotation, _Lenient(globalns, localns or {}), _QUOTE_DEPTH)


_QUOTE_DEPTH = 8
"""How many quoted names deep ``resolve_hint`` evaluates (a name may stand for a string)."""


def _resolve(annotation: Any, names: _Lenient, depth: int) -> Any:
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        evaluated = eval(annotation, names._globalns, names)
        undefined = isinstance(evaluated, typing.ForwardRef) and evaluated.__forward_arg__ == annotation
        return evaluated if undefined or depth == 0 else _resolve(evaluated, names, depth - 1)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner = _resolve(annotation.__origin__, names, depth)
        return annotation if inner is annotation.__origin__ else typing.Annotated[(inner, *annotation.__metadata__)]
    args = typing.get_args(annotation)
    if not args or origin in (typing.Literal, collections.abc.Callable):
        return annotation
    resolved = tuple(arg if arg is Ellipsis else _resolve(arg, names, depth) for arg in args)
    if all(new is old for new, old in zip(resolved, args)):
        return annotation
    if origin in (typing.Union, types.UnionType):
        return typing.Union[resolved]
    if isinstance(annotation, types.GenericAlias):
        return types.GenericAlias(origin, resolved)
    return annotation.copy_with(resolved)


def forward_refs(hint: Any) -> list[str]:
    """The names inside a resolved annotation that were not defined when it was resolved."""
    if isinstance(hint, typing.ForwardRef):
        return [hint.__forward_arg__]
    if typing.get_origin(hint) is typing.Annotated:
        return forward_refs(hint.__origin__)
    return [name for arg in typing.get_args(hint) for name in forward_refs(arg)]


class _Lenient(dict):  # type: ignore[type-arg]
    """Local namespace for ``eval`` that turns an undefined name into a ``ForwardRef``."""

    def __init__(self, globalns: dict[str, Any], localns: dict[str, Any]) -> None:
        super().__init__(localns)
        self._globalns = globalns

    def __missing__(self, name: str) -> Any:
        if name in self._globalns:
            return self._globalns[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        return typing.ForwardRef(name)
