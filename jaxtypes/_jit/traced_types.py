"""Runtime classification of a declared type in a traced position of ``jaxtypes.jit``.

The twin of the mypy plugin's ``traced_types``: arrays, scalars and pytrees are fine; ``str``,
``bytes``, static dataclasses and plain classes that are not registered pytrees fail inside jax
with "not a valid JAX type" (``jit-unsupported-argument``).
"""

from __future__ import annotations

import sys
import types
import typing
from typing import Any

from jaxtypes._classes.declared_types import check_static_type, is_open
from jaxtypes._classes.markers import spell
from jaxtypes._classes.static_values import ProblemFound, is_array_type, is_pytree_class, is_static_class
from jaxtypes._jit.jax_internals import is_registered_node
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import NUMPY_NO_JAX_SCALARS


def check_traced_type(hint: Any) -> None:
    """Raise ``ProblemFound`` if a value of type ``hint`` can never be a traced argument of jit.

    The twin of ``check_static_type`` for parameters jit traces: arrays, scalars and pytrees
    are fine; ``str``, ``bytes``, static dataclasses and plain classes that are not registered
    pytrees fail inside jax with "not a valid JAX type". Looks through unions and
    ``Annotated`` only; container contents and open classes get the benefit of the doubt.
    """
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        check_traced_type(hint.__origin__)
        return
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            check_traced_type(arg)
        return
    if not _is_class(hint) or _is_jax_type(hint) or hint is object or is_open(hint):
        return
    if is_static_class(hint):
        raise ProblemFound(phrases.static_class_marked_dynamic(spell(hint)))
    raise ProblemFound(phrases.not_a_jax_type(spell(hint), hashable=_is_static_type(hint)))


def _is_static_type(hint: Any) -> bool:
    try:
        check_static_type(hint)
    except ProblemFound:
        return False
    return True


def _is_jax_type(cls: type) -> bool:
    """Arrays (and ``__jax_array__`` types), scalars and their subclasses (an ``IntEnum``), ``None``
    and registered pytree node types."""
    if issubclass(cls, (int, float, complex, type(None))) or is_array_type(cls) or is_pytree_class(cls):
        return True
    if hasattr(cls, "__jax_array__"):
        return True
    np = sys.modules.get("numpy")
    if np is not None and issubclass(cls, np.generic):
        return not issubclass(cls, tuple(getattr(np, name) for name in NUMPY_NO_JAX_SCALARS))
    return is_registered_node(cls)


def _is_class(hint: Any) -> bool:
    """A class, not a parametrised generic (``list[int]`` passes ``isinstance(_, type)`` before 3.11)."""
    return isinstance(hint, type) and not isinstance(hint, types.GenericAlias)
