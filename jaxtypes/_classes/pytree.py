"""``@pytree_dataclass``: a frozen dataclass registered as a JAX pytree with static leaves.

Fields marked ``Static[...]``, typed as a static dataclass, or declared ``field(hash_by_id=True)``
are the pytree's metadata (part of jit's cache key, validated like static fields); every other
field is data (traced, may hold arrays and tracers).

jax flattens and unflattens the class itself (``register_dataclass``), so jit dispatch costs what
it costs for any dataclass. Unflattening calls the class, whose ``__init__`` is compiled for it
(``constructors``): the metadata of an instance this library validated comes back as the
same objects and is recognised without being walked again; metadata from anywhere else (a
treedef built or unpickled elsewhere, ``replace``, the constructor, unpickling) is validated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import NamedTuple, TypeVar, overload

from typing_extensions import dataclass_transform

from jaxtypes._classes.constructors import pytree_init, reduce_through_constructor
from jaxtypes._classes.declared_types import check_static_field_type, read_field_markers
from jaxtypes._classes.fields import field, hashed_by_id
from jaxtypes._classes.static_values import PYTREE_CLASS_FLAG, is_static_class
from jaxtypes._vocabulary.positions import is_static

T = TypeVar("T")


class PytreeInfo(NamedTuple):
    """How a pytree class splits its fields: data (traced) and meta (static), by name."""

    data_fields: tuple[str, ...]
    meta_fields: tuple[tuple[str, bool], ...]


@overload
def pytree_dataclass(cls: type[T], /) -> type[T]: ...
@overload
def pytree_dataclass(*, repr: bool = True, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field, dataclasses.field))
def pytree_dataclass(
    cls: type[T] | None = None, /, *, repr: bool = True, kw_only: bool = False
) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a frozen dataclass that jit, vmap, grad and ``jax.tree_util`` see as a pytree.

    Instances compare by identity (their data fields hold arrays, which have no single truth
    value); change one with ``dataclasses.replace``.
    """

    def wrap(cls: type[T]) -> type[T]:
        return _make_pytree(cls, repr=repr, kw_only=kw_only)

    return wrap if cls is None else wrap(cls)


def _make_pytree(cls: type[T], *, repr: bool, kw_only: bool) -> type[T]:
    import jax  # imported here so that importing jaxtypes (and the mypy plugin) stays jax-free

    own_init = "__init__" in cls.__dict__  # the dataclass keeps an __init__ the class wrote
    cls = dataclasses.dataclass(cls, frozen=True, eq=False, repr=repr, kw_only=kw_only)
    data: list[str] = []
    meta: list[tuple[str, bool]] = []
    # Flagged before its fields are checked: a Static field naming the class itself is a pytree
    # inside a static value. The real split replaces the placeholder below.
    setattr(cls, PYTREE_CLASS_FLAG, None)
    for f, where, kind, inner in read_field_markers(cls, dataclasses.fields(cls)):  # type: ignore[arg-type]
        by_id = hashed_by_id(f)
        if is_static(kind, static_class_type=isinstance(inner, type) and is_static_class(inner), hash_by_id=by_id):
            if not by_id:
                check_static_field_type(where, inner, defined_at=cls)
            meta.append((f.name, by_id))
        else:
            data.append(f.name)
    info = PytreeInfo(tuple(data), tuple(meta))
    setattr(cls, PYTREE_CLASS_FLAG, info)
    cls.__init__ = pytree_init(cls, info.meta_fields, own_init=own_init)  # type: ignore[method-assign]
    cls.__reduce__ = reduce_through_constructor  # type: ignore[method-assign]
    jax.tree_util.register_dataclass(cls, data_fields=list(data), meta_fields=[name for name, _ in meta])
    return cls
