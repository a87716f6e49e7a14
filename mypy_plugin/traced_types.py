"""Classification of a mypy type in a traced (non-static) position of ``jaxtypes.jit``.

The twin of the runtime's ``jaxtypes/_jit/traced_types.py`` ``check_traced_type``: arrays, scalars and
pytrees are fine; ``str``, ``bytes``, static dataclasses and plain classes that are not pytrees
are ``jit-unsupported-argument``. Like the runtime it looks through unions only, and judges a
class only when it is written bare (``Box``, not ``Box[int]``): a parameterised generic gets the
benefit of the doubt, as the runtime gives it.
"""

from __future__ import annotations

from mypy.nodes import (
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    LambdaExpr,
    MypyFile,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import CallableType, Instance, TupleType, Type, UnionType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.constructors import has_static_fields, is_static_field
from mypy_plugin.declared_types import is_open, jaxtypes_role, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_targets import is_pytree
from mypy_plugin.markers import class_name, is_array_class, is_bare, spell
from mypy_plugin.library_fields import library_base
from mypy_plugin.metadata import RegisteredPytree
from mypy_plugin.mypy_internals import MypyDataclass, checked_module, named_tuple_fields
from mypy_plugin.statements import calls
from mypy_plugin.stdlib_dataclasses import is_pytree_dataclass
from mypy_plugin.value_origins import given_fields, origins

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

TEXT_CLASSES = frozenset({"builtins.str", "builtins.bytes"})
"""Leaves jit rejects as no JAX type, whatever their value."""


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


def untraceable_problem(
    api: CheckerPluginInterface, expr: Expression, typ: Type, scope: FuncDef | None
) -> Problem | None:
    """What makes a value passed in a traced position of a ``jax.jit`` call fail there: an
    instance of a plain class that nothing can make a pytree (``_never_a_pytree``), a tuple (a
    named one too) holding a function, or a pytree given a function for a data field where the
    module makes it (``eqx.nn.Lambda(lambda x: x)``): jit meets the function as a leaf."""
    proper = get_proper_type(typ)
    if isinstance(proper, TupleType):
        for index, item in enumerate(proper.items):
            if isinstance(get_proper_type(item), CallableType):
                named = proper.partial_fallback.type
                fields = named_tuple_fields(named)
                part = f"field {fields[index]}" if index < len(fields) else f"item {index}"
                return phrases.function_leaf(class_name(named) if fields else spell(proper), part)
    tree = checked_module(api)
    if isinstance(proper, Instance) and tree is not None and _never_a_pytree(proper.type, tree):
        return traced_problem(api, proper)
    instance = proper.partial_fallback if isinstance(proper, TupleType) else proper
    found = _text_leaf(api, instance.type) if isinstance(instance, Instance) and is_bare(instance) else None
    if found is not None:
        return found
    for made in origins(api, expr, expr.line, scope):
        found = _function_given(api, made) if isinstance(made, CallExpr) else None
        if found is not None:
            return phrases.made_at(found, made.line)
    return None


def _data_fields(api: CheckerPluginInterface, info: TypeInfo) -> list[str]:
    """The data fields (not static) of a pytree class whose static fields are declared the way a
    library the plugin reads declares them: a named tuple, a jaxtypes pytree, an ``eqx.Module``
    or flax struct, a ``jdc.pytree_dataclass``, a class with a field another library's marker
    made static. Empty where that is not known (a hand-written flatten, another library's
    dataclass transform, which may mark static fields its own way)."""
    if not is_pytree(api, info) or RegisteredPytree.read(info) is not None:
        return []
    known = (
        info.is_named_tuple or has_static_fields(info) or library_base(info) is not None or is_pytree_dataclass(info)
    )
    if not known:
        return []
    fields = named_tuple_fields(info) or list(getattr(MypyDataclass.read(info), "fields", ()))
    return [field for field in fields if not is_static_field(info, field)]


def _text_leaf(api: CheckerPluginInterface, info: TypeInfo) -> Problem | None:
    """A pytree class with a data field declared ``str`` or ``bytes``: jit meets the text as a
    leaf in every instance (interpax's ``Interpolator1D.method`` under ``jax.jit``)."""
    for field in _data_fields(api, info):
        symbol = info.get(field)
        declared = get_proper_type(symbol.node.type) if symbol is not None and isinstance(symbol.node, Var) else None
        if isinstance(declared, Instance) and declared.type.fullname in TEXT_CLASSES:
            return phrases.text_leaf(class_name(info), field, declared.type.name)
    return None


def _function_given(api: CheckerPluginInterface, call: CallExpr) -> Problem | None:
    """``Class(..., lambda x: x, ...)`` of a pytree class whose fields are known (a named tuple,
    a dataclass pytree), given a function (a lambda, a function's name) for a field that is
    data, not static; a parameter of a hand-written ``__init__`` that is no field is left alone
    (what it stores is not known)."""
    info = call.callee.node if isinstance(call.callee, RefExpr) else None
    data = _data_fields(api, info) if isinstance(info, TypeInfo) else []
    for field, given in given_fields(call, info) if isinstance(info, TypeInfo) else ():
        if field not in data:
            continue
        node = given.node if isinstance(given, RefExpr) else None
        if (
            isinstance(given, LambdaExpr)
            or isinstance(node, (FuncDef, OverloadedFuncDef))
            or (isinstance(node, Decorator) and not node.func.is_property)
        ):
            return phrases.function_leaf(class_name(info), f"field {field}")
    return None


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
        isinstance(argument, RefExpr) and argument.node in own for call in calls(tree.defs) for argument in call.args
    )


def _is_jax_type(info: TypeInfo) -> bool:
    """Scalars, pytree node containers, arrays, ``__jax_array__`` types, numpy scalars."""
    if info.fullname in JAX_NODE_CLASSES or is_array_class(info):
        return True
    return info.get("__jax_array__") is not None or any(base.fullname == "numpy.generic" for base in info.mro)
