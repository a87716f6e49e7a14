"""``jaxtypes.field``: ``dataclasses.field`` plus the one option jaxtypes adds, ``hash_by_id``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

T = TypeVar("T")

METADATA_KEY = "jaxtypes"


@overload
def field(
    *,
    default: T,
    init: bool = True,
    repr: bool = True,
    hash_by_id: bool = False,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> T: ...
@overload
def field(
    *,
    default_factory: Callable[[], T],
    init: bool = True,
    repr: bool = True,
    hash_by_id: bool = False,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> T: ...
@overload
def field(
    *,
    init: bool = True,
    repr: bool = True,
    hash_by_id: bool = False,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> Any: ...
def field(
    *,
    default: Any = dataclasses.MISSING,
    default_factory: Any = dataclasses.MISSING,
    init: bool = True,
    repr: bool = True,
    hash_by_id: bool = False,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: Any = dataclasses.MISSING,
) -> Any:
    """A dataclass field of a static or pytree dataclass.

    ``hash_by_id=True`` vouches that the value is a singleton (a module-level object whose
    identity is its value): jaxtypes then skips validating it and hashes it by identity.
    """
    merged = dict(metadata or {})
    merged[METADATA_KEY] = {"hash_by_id": hash_by_id}
    return dataclasses.field(
        default=default,
        default_factory=default_factory,
        init=init,
        repr=repr,
        metadata=merged,
        kw_only=kw_only,
    )


def hashed_by_id(f: dataclasses.Field[Any]) -> bool:
    """Whether a dataclass field was declared with ``hash_by_id=True``."""
    options = f.metadata.get(METADATA_KEY)
    return bool(options and options.get("hash_by_id"))
