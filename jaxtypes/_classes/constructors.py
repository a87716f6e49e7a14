"""Constructors compiled once per static or pytree class, from the dataclass's own signature.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``, and checking
static fields in a wrapper around it adds a second call that packs and unpacks every argument:
together, a third more than ``jax.tree_util.register_dataclass`` at every construction and at
every unflatten (``tree_map``, ``scan`` carries, optimizer updates call the class with every
field by keyword). Each class here gets one function instead, which takes the same parameters,
stores the fields straight into the instance's ``__dict__`` (through ``object.__setattr__`` for a
field shadowed by a data descriptor, as the dataclass does) and checks or keys its static
fields inline; only a value that is not a plain scalar costs a call.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Hashable
from typing import Any

from jaxtypes._classes.errors import StaticValueError, class_name
from jaxtypes._classes.static_values import PLAIN_SCALARS, STATIC_CLASS_FLAG, Identity, ProblemFound, static_key

# Types whose every instance is a valid static value, however it was built.
ALWAYS_STATIC = PLAIN_SCALARS | {float, complex}


class _Factory:
    """The default of a parameter whose field has a default factory: "call the factory"."""

    def __repr__(self) -> str:
        return "<factory>"  # as the dataclass shows it in the signature


_FACTORY = _Factory()


class FieldKey:
    """Keys, and so validates, the values of one static field; an error names ``Class.field``.

    A static instance was validated when it was built and is its own key. Any other value is
    walked by ``static_key``, and the last one is remembered, by identity: a pytree's metadata
    comes back to unflatten as the very objects validated when the instance was built, and a
    rebuilt config usually passes the same constant tuples, so neither is walked again. A value
    never keyed (a treedef built elsewhere, a changed field) is walked and validated in full.
    """

    __slots__ = ("owner", "name", "_last")

    def __init__(self, owner: type, name: str) -> None:
        self.owner = owner
        self.name = name
        self._last: tuple[object, Hashable] = (self, None)  # self is no field's value

    def key(self, value: object) -> Hashable:
        """``static_key(value)``, or the ``StaticValueError`` naming this field."""
        last = self._last
        if last[0] is value:
            return last[1]
        if STATIC_CLASS_FLAG in type(value).__dict__:
            return value  # not remembered, so that a config nobody uses is freed
        try:
            key = static_key(value)
        except ProblemFound as found:
            where = f"{class_name(self.owner)}.{self.name}"
            raise found.as_error(StaticValueError, where, defined_at=self.owner) from None
        self._last = (value, key)  # one tuple, so that threads never see a value with another's key
        return key


class ConstructorSource:
    """The source of a constructor taking the parameters of ``cls``'s ``__init__``.

    ``head`` applies default factories, ``build(instance)`` stores the fields into ``instance``
    and runs ``__post_init__``, ``value(name)`` is the expression of a field's value once built,
    and ``key`` the type-strict key of all static fields. An ``__init__`` the class wrote itself
    (``own_init``) is called as it is, and the fields are read back from the instance.
    """

    def __init__(self, cls: type, original_init: Callable[..., None], *, own_init: bool) -> None:
        self.cls = cls
        self.original_init = original_init
        self.own_init = own_init
        self.namespace: dict[str, Any] = {
            "__jt_owner": cls,
            "__jt_type": type,
            "__jt_setattr": object.__setattr__,
            "__jt_plain": PLAIN_SCALARS,
            "__jt_float": float,
            "__jt_always_static": ALWAYS_STATIC,
            "__jt_factory": _FACTORY,
            "__jt_identity": Identity,
        }
        self.fields = {f.name: f for f in dataclasses.fields(cls)}
        self.namespace["__jt_init"] = original_init
        parameters = [] if own_init else list(inspect.signature(original_init).parameters.values())[1:]
        self.signature: list[str] = ["*__jt_args", "**__jt_kwargs"] if own_init else []
        for parameter in parameters:
            if parameter.kind is inspect.Parameter.KEYWORD_ONLY and "*" not in self.signature:
                self.signature.append("*")
            self.signature.append(self._parameter(parameter))
        self.init_vars = [p.name for p in parameters if p.name not in self.fields]
        self.post_init = not own_init and hasattr(cls, "__post_init__")
        self.head = [
            f"if {name} is __jt_factory: {name} = __jt_default_{name}()"
            for name, f in self.fields.items()
            if f.init and f.default_factory is not dataclasses.MISSING and not own_init
        ]

    def _parameter(self, parameter: inspect.Parameter) -> str:
        f = self.fields.get(parameter.name)
        default: Any = parameter.default
        if f is not None and f.default_factory is not dataclasses.MISSING:
            default = _FACTORY
            self.namespace[f"__jt_default_{f.name}"] = f.default_factory
        if default is inspect.Parameter.empty:
            return parameter.name
        self.namespace[f"__jt_value_{parameter.name}"] = default
        return f"{parameter.name}=__jt_value_{parameter.name}"

    def build(self, instance: str) -> list[str]:
        """Lines that store the fields into the new ``instance`` and run ``__post_init__``."""
        if self.own_init:
            return [f"__jt_init({instance}, *__jt_args, **__jt_kwargs)"]
        lines = [f"__jt_dict = {instance}.__dict__"] if self.cls.__dictoffset__ else []
        for name, f in self.fields.items():
            if f.init:
                value = name
            elif f.default_factory is not dataclasses.MISSING:
                value = f"__jt_default_{name}()"
                self.namespace[f"__jt_default_{name}"] = f.default_factory
            else:  # read through the class attribute holding the default, as the dataclass does
                continue
            if self._stored_directly(name):
                lines.append(f"__jt_dict[{name!r}] = {value}")
            else:
                lines.append(f"__jt_setattr({instance}, {name!r}, {value})")
        if self.post_init:
            lines.append(f"{instance}.__post_init__({', '.join(self.init_vars)})")
        return lines

    def _stored_directly(self, name: str) -> bool:
        if not self.cls.__dictoffset__:
            return False
        attribute = inspect.getattr_static(self.cls, name, None)
        return not (hasattr(type(attribute), "__set__") or hasattr(type(attribute), "__delete__"))

    @property
    def values_known_before_build(self) -> bool:
        """Whether every field's final value is its parameter: no ``__post_init__``, no
        ``init=False`` field, no descriptor between the parameter and the stored value, and the
        ``__init__`` is the dataclass's."""
        if self.own_init or self.post_init:
            return False
        return all(f.init and self._stored_directly(f.name) for f in self.fields.values())

    def value(self, name: str, instance: str) -> str:
        """The expression of field ``name``'s final value: its parameter, or read back once built."""
        return name if self.values_known_before_build else f"{instance}.{name}"

    def field_key(self, name: str) -> str:
        """The name of ``name``'s ``FieldKey.key`` in the namespace."""
        keyer = f"__jt_key_{name}"
        self.namespace[keyer] = FieldKey(self.cls, name).key
        return keyer

    def key(self, fields: tuple[tuple[str, bool], ...], instance: str) -> str:
        """For each field, its value's type and its value as the key where that is type-strict (a
        plain scalar, a float other than a zero or NaN), else its ``static_key``; a ``hash_by_id``
        field's value by identity. Types first, so ``1``, ``1.0`` and ``True`` differ; zeros and NaN
        by ``static_key``, so ``-0.0`` differs from ``0.0`` and NaN equals NaN. The class is not in
        the key: each class has its own table, and instances of two classes never compare equal.
        """
        terms: list[str] = []
        for name, by_id in fields:
            value = self.value(name, instance)
            if by_id:
                terms.append(f"__jt_identity({value})")
                continue
            value_type = f"__jt_type_{name}"
            keyed = f"{self.field_key(name)}({value})"
            exact_float = f"{value_type} is __jt_float and {value} == {value} and {value}"
            terms.append(f"({value_type} := __jt_type({value}))")
            terms.append(f"{value} if {value_type} in __jt_plain or ({exact_float}) else {keyed}")
        return "(" + "".join(f"{term}, " for term in terms) + ")"

    def compile(self, name: str, first: str, body: list[str]) -> Callable[..., Any]:
        """The function ``name(first, <the dataclass parameters>)`` running ``body``."""
        parameters = ", ".join([first, *self.signature])
        source = f"def {name}({parameters}):\n" + "".join(f"    {line}\n" for line in body)
        exec(source, self.namespace)  # the source holds only field names and the names above
        function: Callable[..., Any] = self.namespace[name]
        function.__qualname__ = f"{self.cls.__qualname__}.{name}"
        function.__module__ = self.cls.__module__
        function.__annotations__ = dict(self.original_init.__annotations__)
        if self.own_init:
            function.__wrapped__ = self.original_init  # type: ignore[attr-defined]  # its signature
        return function


def pytree_init(cls: type, meta: tuple[tuple[str, bool], ...], *, own_init: bool) -> Callable[..., None]:
    """``__init__`` of a pytree class: stores its fields and validates its static ones.

    Values of a type that is always static cost a type check; a ``hash_by_id`` value is the
    user's word and is not checked.
    """
    source = ConstructorSource(cls, cls.__dict__["__init__"], own_init=own_init)
    body = [*source.head, *source.build("__jt_self")]
    for name, by_id in meta:
        if not by_id:
            value = source.value(name, "__jt_self")
            body.append(f"__jt_type({value}) in __jt_always_static or {source.field_key(name)}({value})")
    return source.compile("__init__", "__jt_self", body)


def reduce_through_constructor(self: Any) -> tuple[Any, ...]:
    """``__reduce__`` that recreates an instance through its constructor, which validates it
    (``copy``, ``deepcopy`` and unpickling, in this process or another)."""
    fields = dataclasses.fields(self)
    return (rebuild, (type(self), {f.name: getattr(self, f.name) for f in fields if f.init}))


def rebuild(cls: type, kwargs: dict[str, Any]) -> Any:
    """Recreate an instance of ``cls`` from its ``__init__`` fields."""
    return cls(**kwargs)
