"""Call hooks: bound methods, lambdas and local functions passed into static fields by
constructors and ``dataclasses.replace``, and arrays and unhashable values passed into static
fields of other libraries' classes that declare no type (``Any``, an attribute a hand-written
``tree_flatten`` returns as aux data), and tracers into any of theirs (a parameter that a jax
transformation traces: ``jax.grad(lambda w: Loss(x, weight=w))``).

Which arguments are static comes from the class's records (``metadata``) (every field of a static class, the
``meta_fields`` of a pytree class, the fields another library's marker made static:
``library_fields``), so the check works on classes from the cache and from other workers.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Context, Expression, FuncDef, MemberExpr, MypyFile, NameExpr, RefExpr, TypeInfo, Var
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import AnyType, CallableType, Instance, Type, TypeAliasType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import MARKERS, StaticMarker, fix_for
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.declared_types import UNHASHABLE_IN_A_HASH, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_evidence import changed_bound_method, with_evidence
from mypy_plugin.jitted_types import jits, named_type
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name, spell
from mypy_plugin.metadata import ClassFacts, LibraryFields
from mypy_plugin.mypy_internals import checked_module, enclosing_functions, is_same_type, is_subtype
from mypy_plugin.reporting import report
from mypy_plugin.statements import taken_by, walk
from mypy_plugin.static_values import bound_method_problem, fresh_callable_problem
from mypy_plugin.traced_parameters import tracer_problem
from mypy_plugin.value_origins import compares_as_number
from mypy_plugin.value_uses import only_passed


def constructor_hook(ctx: FunctionContext) -> Type:
    """``Config(fn=obj.method)``: check the arguments that land in static fields."""
    info = _checked_class(ctx.default_return_type)
    if info is not None:
        for names, kinds, exprs, types in zip(ctx.callee_arg_names, ctx.arg_kinds, ctx.args, ctx.arg_types):
            for kind, expr, typ in zip(kinds, exprs, types):
                if not kind.is_star():  # a star argument's type is the whole sequence or mapping
                    _check_argument(ctx.api, info, names, expr, typ, ctx.context)
    return ctx.default_return_type


def replace_hook(ctx: FunctionContext) -> Type:
    """``dataclasses.replace(config, fn=obj.method)``: the same check on the changed fields."""
    if ctx.arg_types and ctx.arg_types[0]:
        info = _checked_class(ctx.arg_types[0][0])
        if info is not None:
            for names, exprs, types in zip(ctx.arg_names[1:], ctx.args[1:], ctx.arg_types[1:]):
                for name, expr, typ in zip(names, exprs, types):
                    _check_argument(ctx.api, info, name, expr, typ)
    return ctx.default_return_type


def _check_argument(
    api: CheckerPluginInterface,
    info: TypeInfo,
    parameter: str | None,
    expr: Expression,
    typ: Type,
    construction: Context | None = None,
) -> None:
    """What ``expr`` (of type ``typ``), given for ``parameter`` by the ``construction`` (a
    constructor call; none for ``dataclasses.replace``, whose parameters are fields), brings
    into the field of ``info`` that it fills."""
    judge = recorder(api)
    for base in info.mro:  # which fields are static comes from their metadata
        judge.looked_through(base)
    name = _stored_in(info, parameter) if construction is not None else parameter
    field = _static_field(info, name) if name is not None else None
    if field is None:
        return
    where, marker = field
    if isinstance(expr, MemberExpr) and marker is not None:  # compared by its object, as jax.jit(obj.method) is
        problem = changed_bound_method(api, expr)
    elif isinstance(expr, MemberExpr):
        problem = bound_method_problem(expr, api.get_expression_type(expr.expr), judge)
    else:
        problem = fresh_callable_problem(expr, *enclosing_functions(api))
    tracer = tracer_problem(api, expr) if problem is None and marker is not None else None
    if tracer is not None and marker is not None:  # a parameter jax traces, whatever its type
        problem = tracer._replace(fix=fix_for(tracer.rule, marker, tracer.fix))
    if problem is None and marker is not None and name is not None and not _declared(info, name):
        problem = _held_problem(typ, judge, marker)
        if problem is not None and parameter is not None and parameter != name:
            problem = phrases.given_for(parameter, problem)
    elif problem is None and marker is not None and name is not None:
        problem = _not_admitted(info, name, parameter or name, typ, judge, marker)
    if problem is None and marker is not None and name in _by_value_fields(info) and not compares_as_number(api, expr):
        problem = _held_problem(typ, judge, marker)
    if problem is not None and marker is not None and _meets_no_jit(api, construction):
        problem = phrases.unobserved(problem)
    elif problem is not None and marker is not None:  # pytree metadata, compared rather than hashed
        problem = with_evidence(api, problem, info, name, expr, _library_static_fields(info))
    if problem is not None:
        report(api, problem, where, expr)


def _meets_no_jit(api: CheckerPluginInterface, construction: Context | None) -> bool:
    """The instance ``construction`` makes goes nowhere but into calls that key no compiled code
    on it (``_keys_nothing``), directly or by the local name it is bound to: made again and again
    there, it is no evidence of compiling again, and the class's instances that meet jit elsewhere
    (``jit_evidence.flattened_by_jit``) are no evidence about it."""
    tree = checked_module(api)
    return (
        tree is not None and isinstance(construction, CallExpr) and _kept_from_jit(tree, construction, CALLS_FOLLOWED)
    )


CALLS_FOLLOWED = 2
"""How many calls of the module's functions and classes a value is followed through, to the calls
it meets."""


def _kept_from_jit(tree: MypyFile, made: Expression | Var, depth: int) -> bool:
    """The value ``made`` makes (or the parameter ``made`` is) goes only into calls that key
    nothing on it."""
    passed = only_passed(tree, made)
    return passed is not None and all(_keys_nothing(tree, call, argument, depth) for call, argument in passed)


def _keys_nothing(tree: MypyFile, call: CallExpr, argument: Expression, depth: int) -> bool:
    """``call`` keys no compiled code on ``argument``: a function no jit returned (``jax.vmap``,
    ``nnx.vmap``, a plain function of another module), a function of the module whose parameter
    ``argument`` fills goes on only into such calls, or a class's call whose instance does (what
    holds the argument goes where that instance goes), ``depth`` calls deep. A function
    ``jax.jit``, ``jaxtypes.jit`` or ``eqx.filter_jit`` returned keys on it; so may what the call
    cannot name (an instance's method, a call's result)."""
    callee = call.callee
    node = callee.node if isinstance(callee, RefExpr) else None
    if isinstance(node, TypeInfo):  # holds it: it goes where the instance the call makes goes
        return depth > 0 and _kept_from_jit(tree, call, depth - 1)
    if isinstance(callee, NameExpr) and isinstance(node, FuncDef) and _defines(tree, node):
        parameter = taken_by(node, call, argument)
        return depth > 0 and parameter is not None and _kept_from_jit(tree, parameter, depth - 1)
    typ = named_type(node)
    return typ is not None and not jits(typ)


def _defines(tree: MypyFile, function: FuncDef) -> bool:
    """``function`` is defined in ``tree``, whose syntax the checker has whole in every mode."""
    return any(node is function for node, *_ in walk(tree.defs, definitions=True))


def _held_problem(typ: Type, judge: Judge, marker: StaticMarker) -> Problem | None:
    """What an argument given to an undeclared (``Any``) static field of another library's
    brings into a hash over the fields: an array, or an unhashable value where the library
    asks for hashable ones. Its declared type, where there is one, was judged at the field."""
    problem = static_problem(typ, judge._replace(lenient=True))
    if problem is None or problem.rule not in UNHASHABLE_IN_A_HASH:
        return None
    return problem._replace(fix=fix_for(problem.rule, marker, problem.fix))


def _declared_type(info: TypeInfo, name: str) -> Type | None:
    """The type the field or attribute ``name`` is declared with; None for one whose type mypy
    infers (``self.x = x``)."""
    symbol = info.get(name)
    var = symbol.node if symbol is not None else None
    if not isinstance(var, Var) or var.type is None or (var.is_inferred and not var.explicit_self_type):
        return None
    return var.type


def _declared(info: TypeInfo, name: str) -> bool:
    """Whether the field or attribute ``name`` has a declared type other than ``Any`` (judged at
    the declaration); an attribute whose type mypy infers (``self.x = x``) is judged here."""
    declared = _declared_type(info, name)
    return declared is not None and (
        not isinstance(get_proper_type(declared), AnyType) or isinstance(declared, TypeAliasType)
    )


def _not_admitted(
    info: TypeInfo, name: str, parameter: str, given: Type, judge: Judge, marker: StaticMarker
) -> Problem | None:
    """What a value of type ``given`` that the constructor's ``parameter``, declared as the field
    ``name`` it fills is, does not admit (an array given to a field declared ``int``, the
    parameter a dataclass makes of it) brings into the field: mypy's own error says the types
    differ, which ``jaxtypes check`` does not show; this says what jit makes of it. A parameter
    declared otherwise than the field (an attrs converter's, a hand-written ``__init__``'s) may be
    converted before it is stored (``self.irreps = Irreps(irreps)``): judged as declared."""
    declared = _declared_type(info, name)
    declared_parameter = _parameter_type(info, parameter)
    if (
        declared is None
        or declared_parameter is None
        or not is_same_type(declared_parameter, declared)
        or is_subtype(given, declared_parameter)
    ):
        return None
    held = _held_problem(given, judge, marker)
    return phrases.given_instead(spell(declared), held) if held is not None else None


def _parameter_type(info: TypeInfo, name: str) -> Type | None:
    """The declared type of the parameter ``name`` of the constructor of ``info``."""
    symbol = info.get("__init__")
    signature = symbol.node.type if symbol is not None and isinstance(symbol.node, FuncDef) else None
    if not isinstance(signature, CallableType) or name not in signature.arg_names:
        return None
    return signature.arg_types[signature.arg_names.index(name)]


def _static_field(info: TypeInfo, name: str) -> tuple[str, StaticMarker | None] | None:
    """How a problem names field ``name`` of ``info`` if it is static, else None, and the
    other library's marker that made it static: every field of a static class, the meta fields
    of a pytree class, the fields another library's marker made static (in the class or a base)."""
    facts = ClassFacts.read(info)
    if facts is not None:
        static = facts.role == "static" or name in facts.meta_fields
        return (f"{class_name(info)}.{name}", None) if static else None
    for base in info.mro:
        fields = LibraryFields.read(base)
        if fields is not None and name in fields.fields:
            return phrases.library_field(f"{class_name(info)}.{name}", fields.marker), MARKERS.get(fields.marker)
    return None


def _stored_in(info: TypeInfo, parameter: str | None) -> str | None:
    """The field the constructor ``parameter`` fills: the static field of its name, else the one
    ``__init__`` keeps it in (``self._config = config``: ``LibraryFields.stored``); none where
    construction always stores a value made of it instead (``self.breaks = tuple(breaks)``:
    ``LibraryFields.converted``), which the field's own declaration or value is judged by."""
    records = [fields for fields in map(LibraryFields.read, info.mro) if fields is not None]
    if parameter is None or any(parameter in fields.converted for fields in records):
        return None
    if _static_field(info, parameter) is not None:
        return parameter
    return next((fields.stored[parameter] for fields in records if parameter in fields.stored), parameter)


def is_static_field(info: TypeInfo, name: str) -> bool:
    """Whether field ``name`` of ``info`` is static (``_static_field``): pytree metadata, not data."""
    return _static_field(info, name) is not None


def _library_static_fields(info: TypeInfo) -> set[str]:
    """The fields of ``info`` and its bases that another library's marker made static."""
    return {name for base in info.mro for name in getattr(LibraryFields.read(base), "fields", ())}


def _by_value_fields(info: TypeInfo) -> set[str]:
    """The static fields of ``info`` and its bases judged by what their default makes, not by
    their declared type (``metadata.LibraryFields.by_value``): what a construction gives them is
    judged here instead."""
    return {name for base in info.mro for name in getattr(LibraryFields.read(base), "by_value", ())}


def has_static_fields(info: TypeInfo) -> bool:
    """A jaxtypes class, or a class with static fields declared with another library's marker."""
    return ClassFacts.read(info) is not None or LibraryFields.inherited(info) is not None


def _checked_class(typ: Type) -> TypeInfo | None:
    proper = get_proper_type(typ)
    return proper.type if isinstance(proper, Instance) and has_static_fields(proper.type) else None
