"""Classification of a mypy type in a traced (non-static) position of ``jaxtypes.jit``.

The twin of the runtime's ``jaxtypes/_jit/traced_types.py`` ``check_traced_type``: arrays, scalars and
pytrees are fine; ``str``, ``bytes``, static dataclasses and plain classes that are not pytrees
are ``jit-unsupported-argument``. Like the runtime it looks through unions only, and judges a
class only when it is written bare (``Box``, not ``Box[int]``): a parameterised generic gets the
benefit of the doubt, as the runtime gives it.
"""

from __future__ import annotations

from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import Instance, Type, UnionType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.declared_types import is_open, jaxtypes_role, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_targets import is_pytree
from mypy_plugin.markers import is_array_class, is_bare, spell

JAX_NODE_CLASSES = frozenset(
    {
        "builtins.int",
        "builtins.float",
        "builtins.complex",
        "builtins.bool",
        "builtins.object",
        "builtins.list",
        "builtins.tuple",
        "builtins.dict",
        "collections.OrderedDict",
        "collections.defaultdict",
    }
)
"""Scalars and the containers jax registers as pytree nodes (besides ``None`` and namedtuples)."""


def traced_problem(api: CheckerPluginInterface, typ: Type) -> Problem | None:
    """Why a value of type ``typ`` (the type inside any marker) can never be a traced argument
    of jit, or None if it can be."""
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return next((f for f in (traced_problem(api, item) for item in proper.items) if f), None)
    if not isinstance(proper, Instance) or not is_bare(proper):
        return None
    info = proper.type
    judge = recorder(api)
    judge.looked_through(info)
    if _is_jax_type(info) or is_pytree(api, info) or is_open(info):
        return None
    if jaxtypes_role(info) == "static":
        return phrases.static_class_marked_dynamic(spell(proper))
    return phrases.not_a_jax_type(spell(proper), hashable=static_problem(proper, judge) is None)


def _is_jax_type(info: TypeInfo) -> bool:
    """Scalars, pytree node containers, arrays, ``__jax_array__`` types, numpy scalars."""
    if info.fullname in JAX_NODE_CLASSES or is_array_class(info):
        return True
    return info.get("__jax_array__") is not None or any(base.fullname == "numpy.generic" for base in info.mro)
