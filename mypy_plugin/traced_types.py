"""Classification of a mypy type in a traced (non-static) position of ``jaxtypes.jit``.

The twin of the runtime's ``jaxtypes/_jit/traced_types.py`` ``check_traced_type``: arrays, scalars and
pytrees are fine; ``str``, ``bytes``, static dataclasses and plain classes that are not pytrees
are ``jit-unsupported-argument``. Like the runtime it looks through unions only, and judges a
class only when it is written bare (``Box``, not ``Box[int]``): a parameterised generic gets the
benefit of the doubt, as the runtime gives it.
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    CallExpr,
    ConditionalExpr,
    Decorator,
    Expression,
    FuncDef,
    LambdaExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    CallableType,
    Instance,
    LiteralType,
    ProperType,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import NODE_CONTAINERS, NUMPY_NO_JAX_SCALARS, PYTHON_SCALARS, TREE_PARTIAL
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.constructors import has_static_fields, is_static_field
from mypy_plugin.dataclass_options import is_pytree_dataclass
from mypy_plugin.declared_types import is_open, jaxtypes_role, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_targets import below_jax, is_pytree, registering, may_be_registered
from mypy_plugin.markers import class_name, is_array_class, is_bare, spell
from mypy_plugin.library_fields import library_base
from mypy_plugin.metadata import RegisteredPytree
from mypy_plugin.mypy_internals import MypyDataclass, checked_module, is_subtype, named_tuple_base, named_tuple_fields
from mypy_plugin.jitted_types import Statics
from mypy_plugin.statements import calls, looped_items, named_items, placed
from mypy_plugin.method_bodies import assigned_values
from mypy_plugin.value_origins import declared_type, function_bundle, given_fields, reaching_values

JAX_NODE_CLASSES = frozenset({"builtins.object", *PYTHON_SCALARS, *NODE_CONTAINERS})
"""``object``, the scalars and the containers jax registers as pytree nodes (besides ``None`` and
named tuples)."""

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
    """What makes a value passed in a traced position of a ``jax.jit`` call fail there: a leaf
    that is no JAX type (``_foreign_leaf``: an instance of a class nothing can make a pytree, a
    function written there) as the value itself, as an item of a tuple or named tuple, or as each
    item of a list or value of a dict; or a pytree whose class declares a data field ``str``, or
    that the module gives a function for a data field (``eqx.nn.Lambda(lambda x: x)``): jit
    meets the text or the function as a leaf. A name is judged by what the bindings that reach
    it make, where the module shows them all (a parameter declared ``str`` rebound to an array
    before the call), not by the type mypy kept from its declaration."""
    if _assigned_apart(api, expr):
        return None
    reached = reaching_values(api, expr, expr.line, scope)
    values = [expr] if reached is None else [value for value in reached if value is not None]
    bound = isinstance(expr, (NameExpr, ConditionalExpr, OpExpr)) and reached is not None and None not in reached
    shown = [value for value in values if value is not expr] if bound else []
    types = [declared_type(api, value) for value in shown]
    if shown and all(types):  # what the reaching bindings make, over mypy's type of the name
        problems = (
            untraceable_problem(api, value, made, scope) for value, made in zip(shown, types) if made is not None
        )
        return next((problem for problem in problems if problem is not None), None)
    tree = checked_module(api)
    proper = get_proper_type(typ)
    found = _leaf_problem(api, expr, proper, tree) if tree is not None else None
    if found is not None:
        return found
    instance = proper.partial_fallback if isinstance(proper, TupleType) else proper
    found = _text_leaf(api, instance.type) if isinstance(instance, Instance) and is_bare(instance) else None
    if found is not None:
        return found
    for made in values:
        found = (_function_given(api, made) or _bundled_functions(api, made)) if isinstance(made, CallExpr) else None
        if found is not None:
            return phrases.made_at(found, made.line)
    return next((found for made in values if (found := _binds_static(api, made)) is not None), None)


def _binds_static(api: CheckerPluginInterface, made: Expression) -> Problem | None:
    """``jax.tree_util.Partial(f, a, ...)`` binding a static position of ``f``, a jitted function
    (its type carries its static positions): the Partial is a pytree whose children are what it
    binds, so jit traces them, and a tracer reaches that position (jax issue 5609)."""
    if not isinstance(made, CallExpr) or not isinstance(made.callee, RefExpr) or made.callee.fullname != TREE_PARTIAL:
        return None
    if not made.args or made.arg_kinds[0] != ARG_POS:
        return None
    statics = Statics.carried(api.get_expression_type(made.args[0]))
    if statics is None:
        return None
    for place, _ in placed(made.arg_kinds[1:], made.arg_names[1:], made.args[1:]):
        if statics.holds(place):
            name = made.args[0].name if isinstance(made.args[0], RefExpr) else "function"
            return phrases.partial_binds_static(place, name)
    return None


def _leaf_problem(api: CheckerPluginInterface, expr: Expression, proper: ProperType, tree: MypyFile) -> Problem | None:
    if isinstance(proper, TupleType):
        named = proper.partial_fallback.type
        fields = named_tuple_fields(named)
        for index, item in enumerate(proper.items):
            leaf = _foreign_leaf(api, item, tree)
            if leaf is not None:
                part = f"field {fields[index]}" if index < len(fields) else f"item {index}"
                return phrases.leaf_in(class_name(named) if fields else spell(proper), part, leaf)
        return None
    if isinstance(proper, Instance) and proper.type.fullname in NODE_CONTAINERS and proper.args:
        leaf = _foreign_leaf(api, proper.args[-1], tree)
        return phrases.leaf_in(spell(proper), NODE_CONTAINERS[proper.type.fullname], leaf) if leaf else None
    if isinstance(proper, CallableType):
        return phrases.traced_leaf(spell(proper), phrases.FUNCTION) if _written_function(expr) else None
    leaf = _foreign_leaf(api, proper, tree)
    if leaf is None:
        return None
    if isinstance(proper, Instance) and jaxtypes_role(proper.type) == "static":
        return phrases.static_class_traced(spell(proper))
    own = isinstance(proper, Instance) and proper.type.module_name == tree.fullname
    return (traced_problem(api, proper) if own else None) or phrases.traced_leaf(spell(proper), leaf)


def _foreign_leaf(api: CheckerPluginInterface, typ: Type, tree: MypyFile) -> str | None:
    """What a value of type ``typ`` is, where jit meets it as a leaf that is no JAX type: an
    instance of a class nothing can make a pytree (``_never_a_pytree``), spelled. Not a value
    declared ``Callable``: a callable may be a pytree (a ``jax.tree_util.Partial``, an equinox
    module); a function is known where it is written (``_written_function``) or where a library's
    factory makes it (``_bundled_functions``). A union is such a leaf only where every member is
    (``str | None`` may be ``None``)."""
    proper = get_proper_type(typ)
    if isinstance(proper, LiteralType):
        proper = proper.fallback
    if isinstance(proper, UnionType):
        leaves = [_foreign_leaf(api, item, tree) for item in proper.items]
        return leaves[0] if leaves and all(leaves) else None
    if not isinstance(proper, Instance):  # a declared Callable may be a callable pytree (a Partial)
        return None
    info = proper.type
    if _is_jax_type(info) or is_pytree(api, info) or is_open(info) or not _never_a_pytree(info, tree):
        return None
    recorder(api).looked_through(info)
    return spell(proper)


def _written_function(expr: Expression) -> bool:
    """``expr`` is a function as written: a lambda, or the name of a ``def`` (a decorated one
    may be anything its decorator returns, a pytree too)."""
    node = expr.node if isinstance(expr, RefExpr) else None
    return isinstance(expr, LambdaExpr) or isinstance(node, (FuncDef, OverloadedFuncDef))


def _data_fields(api: CheckerPluginInterface, info: TypeInfo) -> list[str]:
    """The data fields (not static) of a pytree class whose static fields are declared the way a
    library the plugin reads declares them: a named tuple, a jaxtypes pytree, an ``eqx.Module``
    or flax struct, a ``jdc.pytree_dataclass``, a class with a field another library's marker
    made static. Empty where that is not known (a hand-written flatten, another library's
    dataclass transform, which may mark static fields its own way)."""
    if not is_pytree(api, info) or RegisteredPytree.read(info) is not None:
        return []
    known = (
        named_tuple_base(info) is not None
        or has_static_fields(info)
        or library_base(info) is not None
        or is_pytree_dataclass(info)
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
    a dataclass pytree), given a function (a lambda, a function's name) or a class (``float``)
    for a field that is data, not static; a parameter of a hand-written ``__init__`` that is no
    field is left alone (what it stores is not known)."""
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
            return phrases.leaf_in(class_name(info), f"field {field}", phrases.FUNCTION)
        if isinstance(node, TypeInfo):
            return phrases.leaf_in(class_name(info), f"field {field}", "class")
    return None


def _assigned_apart(api: CheckerPluginInterface, expr: Expression) -> bool:
    """``expr`` reads an attribute whose type mypy inferred from its first assignment, while its
    class's construction also assigns it a value of another declared type (``self.gravity =
    "keplerian"``, else a function): what the attribute holds is not its type."""
    owner = get_proper_type(api.get_expression_type(expr.expr)) if isinstance(expr, MemberExpr) else None
    symbol = owner.type.get(expr.name) if isinstance(owner, Instance) and isinstance(expr, MemberExpr) else None
    attribute = symbol.node if symbol is not None else None
    if not isinstance(attribute, Var) or not attribute.is_inferred or attribute.type is None or not attribute.info:
        return False
    made = (declared_type(api, value) for value in assigned_values(attribute.info.defn, attribute.name))
    return any(typ is not None and not is_subtype(typ, attribute.type) for typ in made)


def _bundled_functions(api: CheckerPluginInterface, call: CallExpr) -> Problem | None:
    """A bundle of functions that a library's factory makes (``value_origins.function_bundle``: an
    ``Optimizer`` of ``jax.example_libraries``), as the value itself or unpacked into a named
    tuple (``Optimizer(*optimizers.adam(1e-3))``): jit meets its functions as leaves."""
    unpacked = [arg for arg, kind in zip(call.args, call.arg_kinds) if kind == ARG_STAR and isinstance(arg, CallExpr)]
    for made in [call, *unpacked]:
        bundle = function_bundle(made, recorder(api)) if isinstance(made, CallExpr) else None
        if bundle is not None:
            return phrases.leaf_in(class_name(bundle[0]), f"field {bundle[1]}", phrases.FUNCTION)
    return None


def _never_a_pytree(info: TypeInfo, tree: MypyFile) -> bool:
    """Nothing can make ``info`` a pytree. Each of it and its bases is a class of the module being
    checked that no call in the module is given (a registering helper), or a class of the
    standard library or of a package jax depends on (``below_jax``) that no registration in the
    module is given; and no decorator, metaclass or ``__init_subclass__`` may register it
    (``may_be_registered``)."""
    own = info.mro[:-1]
    local = [base for base in own if base.module_name == tree.fullname]
    if not all(base in local or below_jax(base) for base in own) or may_be_registered(info):
        return False
    given = list(calls(tree.defs))
    looped = looped_items(tree.defs)
    if any(
        isinstance(item, RefExpr) and item.node in local
        for call in given
        for argument in call.args
        for item in named_items(argument, looped)
    ):
        return False
    return not any(registering(given, base, tree, looped) for base in own)


def _is_jax_type(info: TypeInfo) -> bool:
    """Scalars and their subclasses, pytree node containers, arrays, ``__jax_array__`` types, numpy
    scalars of a type jit traces (not text, objects or dates)."""
    if info.fullname in JAX_NODE_CLASSES or is_array_class(info):
        return True
    if info.get("__jax_array__") is not None:
        return True
    bases = {base.fullname for base in info.mro}
    if bases & PYTHON_SCALARS:
        return True
    return "numpy.generic" in bases and not bases & {f"numpy.{name}" for name in NUMPY_NO_JAX_SCALARS}
