"""Classification of a mypy type in a traced (non-static) position of ``jaxtypes.jit``.

The twin of the runtime's ``jaxtypes/_jit/traced_types.py`` ``check_traced_type``: arrays, scalars and
pytrees are fine; ``str``, ``bytes``, static dataclasses and plain classes that are not pytrees
are ``jit-unsupported-argument``. Like the runtime it looks through unions only, and judges a
class only when it is written bare (``Box``, not ``Box[int]``): a parameterised generic gets the
benefit of the doubt, as the runtime gives it.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, MypyFile, RefExpr, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import CallableType, Instance, TupleType, Type, UnionType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.declared_types import is_open, jaxtypes_role, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_targets import is_pytree
from mypy_plugin.markers import class_name, is_array_class, is_bare, spell
from mypy_plugin.mypy_internals import checked_module, get_subexpressions
from mypy_plugin.statements import walk

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


def untraceable_problem(api: CheckerPluginInterface, typ: Type) -> Problem | None:
    """What makes a value passed in a traced position of a ``jax.jit`` call fail there: an
    instance of a plain class that nothing can make a pytree (``_never_a_pytree``), or a tuple (a
    named one too) holding a function, which jit meets as a leaf."""
    proper = get_proper_type(typ)
    if isinstance(proper, TupleType):
        for index, item in enumerate(proper.items):
            if isinstance(get_proper_type(item), CallableType):
                named = proper.partial_fallback.type
                fields = named.metadata.get("namedtuple", {}).get("fields") if named.is_named_tuple else None
                part = f"field {fields[index]}" if fields and index < len(fields) else f"item {index}"
                return phrases.function_leaf(class_name(named) if fields else spell(proper), part)
        return None
    tree = checked_module(api)
    if not isinstance(proper, Instance) or tree is None or not _never_a_pytree(proper.type, tree):
        return None
    return traced_problem(api, proper)


def _never_a_pytree(info: TypeInfo, tree: MypyFile) -> bool:
    """Nothing can make ``info`` a pytree: it and its bases are classes of the module being
    checked without decorators, metaclass or ``__init_subclass__`` (a base's hook may register
    every subclass), and no call in the module is given one of them (a registering helper)."""
    own = info.mro[:-1]
    if any(
        base.module_name != tree.fullname
        or base.defn.decorators
        or base.declared_metaclass
        or "__init_subclass__" in base.names
        for base in own
    ):
        return False
    return not any(
        isinstance(argument, RefExpr) and argument.node in own
        for step in walk(tree.defs)
        for expr in get_subexpressions(step.node)
        if isinstance(expr, CallExpr)
        for argument in expr.args
    )


def _is_jax_type(info: TypeInfo) -> bool:
    """Scalars, pytree node containers, arrays, ``__jax_array__`` types, numpy scalars."""
    if info.fullname in JAX_NODE_CLASSES or is_array_class(info):
        return True
    return info.get("__jax_array__") is not None or any(base.fullname == "numpy.generic" for base in info.mro)
