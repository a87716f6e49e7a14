"""Static fields declared with other libraries' markers, checked with the static rules.

| library | static field | seen by |
| --- | --- | --- |
| flax | ``struct.field(pytree_node=False)`` in ``@struct.dataclass`` or a ``struct.PyTreeNode`` | decorator hook / base class hook |
| equinox | ``eqx.field(static=True)``, ``eqx.static_field()`` in an ``eqx.Module`` | base class hook |
| jax | ``dataclasses.field(metadata={"static": True})`` or ``jax.tree.static()`` under ``@register_dataclass`` | decorator hook |
| jax | the ``meta_fields`` of ``register_dataclass(Cls, data_fields=[...], meta_fields=[...])`` | call hook, where it is called |
| jax | every field of a class given to ``register_static``, and the class itself | decorator hook / call hook |
| jax_dataclasses | ``jdc.Static[...]`` (mypy sees ``jdc.pytree_dataclass`` as ``dataclasses.dataclass``) | dataclass tagging hook |
| jax | the attributes a hand-written flatten function returns as aux data, named or selected by a rule (``flatten_selection``): ``tree_flatten`` of ``register_pytree_node_class``, the flatten function given to ``register_pytree_node`` (also by a base's ``__init_subclass__`` or a decorator of the module) | decorator hook / call hook / base class hook |

Problems use the runtime's codes and the library's marker (``jaxtypes._vocabulary.libraries``), at the field.
The libraries are recognised by the full names mypy gives their definitions, never imported: a
library that is not installed defines none of them, and its classes are left alone.

Base classes and the dataclass tagging hook are seen during the module's first semantic pass,
before dataclass transforms run; the type rules read the decorators' literal options there
(``dataclass_options``, ``declared_types.decorated_role``). Each class's own static field names are
recorded for it (``metadata.LibraryFields``), for the constructor check of ``calls``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Context,
    DictExpr,
    Expression,
    FuncItem,
    LambdaExpr,
    ListExpr,
    NameExpr,
    RefExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface, ClassDefContext, FunctionContext, SemanticAnalyzerPluginInterface
from mypy.types import AnyType, Instance, Type, TypeAliasType, TypeOfAny

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import (
    EQUINOX,
    FLAX_STRUCT,
    JAX_DATACLASS,
    JAX_DATACLASSES,
    JAX_STATIC_CLASS,
    PYTREE_METADATA,
    StaticMarker,
    fix_for,
)
from jaxtypes._vocabulary.names import (
    EQUINOX_MODULE,
    FLATTEN_METHOD_REGISTRATIONS,
    PYTREE_NODE_REGISTRATIONS,
    REGISTER_STATIC,
    TREE_STATIC,
)
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.dataclass_options import tag_hook, written_bool
from mypy_plugin.declared_types import class_problem, static_problem
from mypy_plugin.dependencies import analyser_judge, recorder
from mypy_plugin.hashing import defines_hash
from mypy_plugin.jit_evidence import with_evidence
from mypy_plugin.jit_targets import registered_class_hook
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name, is_array_type
from mypy_plugin.metadata import DataclassOptions, FlattenedAux, LibraryFields, RegistersDerived
from mypy_plugin.flatten_selection import expand, field_helpers, flatten_aux
from mypy_plugin.method_bodies import (
    FLATTEN_METHODS,
    assigned_values,
    class_functions,
    constructed_attributes,
    definition,
    derived_registration,
    own_flatten,
    parameter_storage,
    registered_flatten,
    registration_calls,
)
from mypy_plugin.mypy_internals import checked_module, dataclass_class_maker_callback
from mypy_plugin.reporting import report
from mypy_plugin.static_values import default_problem
from mypy_plugin.value_origins import (
    FINE,
    UNKNOWN,
    Verdict,
    assigned_problem,
    compares_as_number,
    constructed_verdict,
    made_verdict,
)

FLAX_DATACLASS = "flax.struct.dataclass"
FLAX_BASE = "flax.struct.PyTreeNode"
FLAX_FIELD = "flax.struct.field"
EQUINOX_FIELD = "equinox._module._field.field"
EQUINOX_STATIC_FIELD = "equinox._module._field.static_field"
DATACLASS_FIELD = "dataclasses.field"
JDC_STATIC = "jax_dataclasses._dataclasses.Static"

LIBRARY_BASES = {FLAX_BASE: FLAX_STRUCT, EQUINOX_MODULE: EQUINOX}


class StaticField(NamedTuple):
    """A field declared static in a class body: where it is, its declared type, its default (or
    what its ``default_factory``, a lambda, returns)."""

    name: str
    context: Context
    type: Type
    default: Expression | None
    made_by_default: Expression | None = None


def library_base(info: TypeInfo) -> StaticMarker | None:
    """The marker of the library whose base class ``info`` has (an equinox or flax struct module)."""
    return next((LIBRARY_BASES[base.fullname] for base in info.mro if base.fullname in LIBRARY_BASES), None)


def base_class_hook(ctx: ClassDefContext) -> None:
    """A subclass of ``struct.PyTreeNode`` or ``eqx.Module``: its own static fields."""
    marker = library_base(ctx.cls.info)
    if marker is FLAX_STRUCT:
        _record_flax_struct(ctx)
    if marker is not None:
        _check_class(ctx.api, ctx.cls, marker)


def flax_dataclass_hook(ctx: ClassDefContext) -> bool:
    """``@flax.struct.dataclass``: mypy's dataclass transform (which claiming the decorator
    replaces), then the static fields."""
    if not dataclass_class_maker_callback(ctx):
        return False
    _record_flax_struct(ctx)
    _check_class(ctx.api, ctx.cls, FLAX_STRUCT)
    return True


def _record_flax_struct(ctx: ClassDefContext) -> None:
    """A flax struct class is a frozen pytree dataclass unless declared ``frozen=False``: flax
    makes it so at run time, though its ``dataclass_transform`` does not say ``frozen_default``,
    so mypy records it as not frozen."""
    given = dict(zip(ctx.reason.arg_names, ctx.reason.args)) if isinstance(ctx.reason, CallExpr) else {}
    given.update(ctx.cls.keywords)
    frozen = written_bool(given.get("frozen")) is not False
    DataclassOptions(eq=True, frozen=frozen, unsafe_hash=False, pytree=True).write(ctx.cls.info)


def register_dataclass_hook(ctx: ClassDefContext) -> bool:
    """``@jax.tree_util.register_dataclass``: a registered pytree, whose fields with
    ``metadata={"static": True}`` or ``jax.tree.static()`` are static, or those its call names
    ``meta_fields`` (``@partial(register_dataclass, meta_fields=[...])``)."""
    registered_class_hook(ctx)
    reason = ctx.reason
    named = _literal_names(zip(reason.arg_names, reason.args), "meta_fields") if isinstance(reason, CallExpr) else None
    if named:
        info = ctx.cls.info
        LibraryFields.erase(info)
        _record(info, JAX_DATACLASS, named)
        _report_fields(ctx.api, info, _named_fields(info, named, reason), JAX_DATACLASS)
    else:
        _check_class(ctx.api, ctx.cls, JAX_DATACLASS)
    return True


def register_static_hook(ctx: ClassDefContext) -> bool:
    """``@jax.tree_util.register_static``: a registered pytree, static as a whole."""
    registered_class_hook(ctx)
    _check_class(ctx.api, ctx.cls, JAX_STATIC_CLASS)
    _check_static_class(ctx.api, ctx.cls.info, ctx.reason)
    return True


def flatten_method_hook(ctx: ClassDefContext) -> bool:
    """``@register_pytree_node_class`` (or ``..._with_keys_class``): a registered pytree whose
    ``tree_flatten`` (or ``tree_flatten_with_keys``), its own or inherited, returns its aux data."""
    registered_class_hook(ctx)
    _check_flattened(ctx.api, ctx.cls.info, ctx.reason)
    return True


def derived_class_hook(ctx: ClassDefContext) -> None:
    """A class derived from one whose ``__init_subclass__`` or ``__new__`` registers each class
    derived from it (``registers_derived``): registered as the decorator registers."""
    flatten_method_hook(ctx)


def registers_derived(info: TypeInfo) -> bool:
    """``info`` or a base registers every class derived from it (``metadata.RegistersDerived``)."""
    return RegistersDerived.inherited(info) is not None


def record_flattening(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the aux data its own flatten method returns (or the flatten
    function its ``__init_subclass__`` registers each derived class with) and whether it
    registers the classes derived from it: read where its body is, for the classes registered
    with them in any module."""
    info = ctx.cls.info
    FlattenedAux.erase(info)
    RegistersDerived.erase(info)
    methods = {method.name: method for method in class_functions(ctx.cls)}
    flatten, outer = own_flatten(ctx.cls), []
    registration = derived_registration(ctx.cls, FLATTEN_METHOD_REGISTRATIONS | PYTREE_NODE_REGISTRATIONS)
    if registration is not None and flatten is None:
        flatten, outer = registered_flatten(*registration, methods), [registration[1].body]
    if flatten is not None:
        tree = checked_module(ctx.api)
        helpers = field_helpers(tree.defs, tree.fullname) if tree is not None else {}
        FlattenedAux(tuple(flatten_aux(flatten, outer, methods)), helpers).write(info)
    if registration is not None:
        RegistersDerived().write(info)


def _check_flattened(api: SemanticAnalyzerPluginInterface, info: TypeInfo, context: Context) -> None:
    """The aux data of the flatten method ``info`` has, from the class that defines it (or
    registers the classes derived from it with a flatten function)."""
    definer = next(
        (
            base
            for base in info.mro
            if FlattenedAux.read(base) is not None or any(name in base.names for name in FLATTEN_METHODS)
        ),
        None,
    )
    if definer is not None:
        analyser_judge(api).looked_through(definer)
    record = FlattenedAux.read(definer) if definer is not None else None
    if record is not None:
        _check_aux_data(api, info, list(record.names), context, record.helpers)


def decorator_flatten_hook(ctx: ClassDefContext) -> bool:
    """A class decorated by a function of its own module that registers the class it makes with
    a flatten function (jax_md's ``dataclass``): the aux data that function returns. Another
    module's function may come from mypy's cache, without its body: left alone."""
    decorator = ctx.reason.callee if isinstance(ctx.reason, CallExpr) else ctx.reason
    function = definition(decorator.node) if isinstance(decorator, RefExpr) else None
    if function is None or function.fullname.rpartition(".")[0] != ctx.cls.info.module_name:
        return True
    for call in registration_calls(function, PYTREE_NODE_REGISTRATIONS):
        flatten = registered_flatten(call, function, {})
        if flatten is not None:
            _check_aux_data(ctx.api, ctx.cls.info, flatten_aux(flatten, [function.body]), ctx.reason)
    return True


def register_node_call_hook(ctx: FunctionContext) -> Type:
    """``register_pytree_node(Cls, flatten, unflatten)`` and ``register_pytree_with_keys(Cls,
    flatten_with_keys, ...)``: the aux data ``flatten`` returns."""
    first = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    flatten = ctx.args[1][0] if len(ctx.args) > 1 and ctx.args[1] else None
    info = first.node if isinstance(first, RefExpr) else None
    function = definition(flatten.node) if isinstance(flatten, RefExpr) else flatten
    if isinstance(info, TypeInfo) and isinstance(function, FuncItem):
        _check_aux_data(ctx.api, info, flatten_aux(function), ctx.context)
    return ctx.default_return_type


def _check_aux_data(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface,
    info: TypeInfo,
    names: list[str],
    context: Context,
    helpers: Mapping[str, Mapping[str, bool]] | None = None,
) -> None:
    """Record and check the attributes ``names`` a flatten function returns as aux data, with
    what the tokens among them stand for in ``info`` (``flatten_selection.expand``), its fields'
    metadata read through ``helpers`` (those the flatten function's module records) and the
    module's own. Those a base recorded already were reported there."""
    tree = checked_module(api)
    own = field_helpers(tree.defs, tree.fullname) if tree is not None and tree.fullname == info.module_name else {}
    names = expand(info, names, constructed_attributes(info), {**(helpers or {}), **own})
    if not names:
        return
    _record(info, PYTREE_METADATA, names)
    recorded = {name for base in info.mro[1:] for name in getattr(LibraryFields.read(base), "fields", ())}
    fresh = [name for name in names if name not in recorded]
    _report_fields(api, info, _named_fields(info, fresh, context), PYTREE_METADATA)


def dataclass_tag_hook(ctx: ClassDefContext) -> None:
    """A stdlib dataclass (``jdc.pytree_dataclass`` too, to mypy): tag it as mypy does, then
    check its ``jdc.Static[...]`` fields."""
    tag_hook(ctx)
    _check_class(ctx.api, ctx.cls, JAX_DATACLASSES)


def register_call_hook(ctx: FunctionContext) -> Type:
    """``register_dataclass(Cls, meta_fields=[...])`` and ``register_static(Cls)`` as calls; the
    meta fields named are recorded for the constructor check, as a decorator's are."""
    first = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    info = first.node if isinstance(first, RefExpr) else None
    if not isinstance(info, TypeInfo):
        return ctx.default_return_type
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    if isinstance(callee, RefExpr) and callee.fullname == REGISTER_STATIC:
        _report_fields(ctx.api, info, _named_fields(info, None, ctx.context), JAX_STATIC_CLASS)
        _check_static_class(ctx.api, info, ctx.context)
    else:
        named = _literal_names(
            ((name, arg) for names, args in zip(ctx.arg_names, ctx.args) for name, arg in zip(names, args)),
            "meta_fields",
        )
        if named:
            _record(info, JAX_DATACLASS, named)
            _report_fields(ctx.api, info, _named_fields(info, named, ctx.context), JAX_DATACLASS)
    return ctx.default_return_type


def _check_class(api: SemanticAnalyzerPluginInterface, defn: ClassDef, marker: StaticMarker) -> None:
    """Check and record the static fields ``defn`` declares in its body with ``marker``."""
    info = defn.info
    fields = _body_fields(defn, marker)
    LibraryFields.erase(info)
    by_value = _report_fields(api, info, fields, marker)
    if fields:
        _record(info, marker, [field.name for field in fields], by_value)


def _record(info: TypeInfo, marker: StaticMarker, names: list[str], by_value: Sequence[str] = ()) -> None:
    """Record the static fields ``names`` of ``info`` for the constructor check, with how its
    ``__init__`` stores its parameters in them (``method_bodies.parameter_storage``)."""
    storage = parameter_storage(info, names)
    LibraryFields(marker.marker, tuple(names), tuple(by_value), storage.stored, storage.converted).write(info)


def _body_fields(defn: ClassDef, marker: StaticMarker) -> list[StaticField]:
    """The annotated fields of the class body that ``marker``'s library declares static."""
    fields = []
    for stmt in defn.defs.body:
        if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and stmt.type is not None):
            continue
        lvalue = stmt.lvalues[0]
        symbol = defn.info.names.get(lvalue.name) if isinstance(lvalue, NameExpr) else None
        if not isinstance(lvalue, NameExpr) or symbol is None or not isinstance(symbol.node, Var):
            continue
        if not symbol.node.is_classvar:
            field = _static_field(lvalue, symbol.node.type or AnyType(TypeOfAny.unannotated), stmt.rvalue, marker)
            fields += [field] if field is not None else []
    return fields


def _static_field(lvalue: NameExpr, typ: Type, rvalue: Expression, marker: StaticMarker) -> StaticField | None:
    """The field if its declaration makes it static in ``marker``'s library."""
    callee, options = _call(rvalue)
    default = options.get("default") if callee is not None else rvalue
    factory = options.get("default_factory")
    made = factory.expr() if isinstance(factory, LambdaExpr) and not factory.arguments else default
    if marker is JAX_DATACLASSES:
        static = isinstance(typ, TypeAliasType) and typ.alias is not None and typ.alias.fullname == JDC_STATIC
        if isinstance(typ, TypeAliasType) and static:
            typ = typ.args[0] if typ.args else AnyType(TypeOfAny.from_omitted_generics)
    elif marker is FLAX_STRUCT:
        static = callee == FLAX_FIELD and _is_literal(options.get("pytree_node"), False)
    elif marker is EQUINOX:
        static = callee == EQUINOX_STATIC_FIELD or (
            callee == EQUINOX_FIELD and _is_literal(options.get("static"), True)
        )
    elif marker is JAX_DATACLASS:
        static = callee == TREE_STATIC or (callee == DATACLASS_FIELD and _static_metadata(options.get("metadata")))
    else:  # register_static: every field
        static = True
    return StaticField(lvalue.name, lvalue, typ, default, made) if static else None


def _call(expr: Expression) -> tuple[str | None, dict[str, Expression]]:
    """The full name of a called field specifier and its keyword arguments."""
    if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
        return None, {}
    return expr.callee.fullname, {name: arg for name, arg in zip(expr.arg_names, expr.args) if name}


def _is_literal(expr: Expression | None, value: bool) -> bool:
    return isinstance(expr, NameExpr) and expr.fullname == f"builtins.{value}"


def _static_metadata(expr: Expression | None) -> bool:
    """``{"static": True, ...}`` or ``dict(static=True, ...)``: the literal mapping says static."""
    if isinstance(expr, DictExpr):
        items = [(key.value, value) for key, value in expr.items if isinstance(key, StrExpr)]
    elif isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.fullname == "builtins.dict":
        items = [(name, value) for name, value in zip(expr.arg_names, expr.args) if name is not None]
    else:
        return False
    return any(key == "static" and _is_literal(value, True) for key, value in items)


def _named_fields(info: TypeInfo, names: list[str] | None, fallback: Context) -> list[StaticField]:
    """The fields ``names`` (every annotated field if None) of a class (or attributes it or a base
    declares, ``self.x: T`` in ``__init__``, or assigns, its type not inferred yet), reported at the
    declaration when the class's syntax tree is there (the module being checked), else at
    ``fallback``."""
    in_body = {
        stmt.lvalues[0].name: stmt.lvalues[0]
        for stmt in info.defn.defs.body
        if isinstance(stmt, AssignmentStmt) and isinstance(stmt.lvalues[0], NameExpr)
    }
    fields = []
    for name in names if names is not None else list(in_body):
        symbol = info.get(name)
        var = symbol.node if symbol is not None else None
        if isinstance(var, Var):
            declared_here = var.info is info and var.line > 0 and bool(info.defn.defs.body)
            typ = var.type or AnyType(TypeOfAny.unannotated)  # judged by what construction assigns
            fields.append(StaticField(name, in_body.get(name, var if declared_here else fallback), typ, None))
        elif symbol is None:  # assigned by a method body the analyser has not reached yet
            assigned = next((base_value for base in info.mro for base_value in assigned_values(base.defn, name)), None)
            if assigned is not None:
                fields.append(StaticField(name, assigned, AnyType(TypeOfAny.unannotated), None))
    return fields


def _literal_names(arguments: Iterable[tuple[str | None, Expression]], parameter: str) -> list[str] | None:
    """The strings of the list or tuple display given as ``parameter`` among a call's
    ``arguments`` (name, value), where every item is one."""
    for name, expr in arguments:
        if name == parameter and isinstance(expr, (ListExpr, TupleExpr)):
            items = [item.value for item in expr.items if isinstance(item, StrExpr)]
            return items if len(items) == len(expr.items) else None
    return None


def _report_fields(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface,
    info: TypeInfo,
    fields: list[StaticField],
    marker: StaticMarker,
) -> list[str]:
    """Report what breaks a rule in ``fields``; return the names of those judged by what their
    default makes (``_by_default``), not by their declared type."""
    if marker is JAX_STATIC_CLASS and defines_hash(info):
        return []  # hashed by its own __hash__: _check_static_class judges what that hashes
    judge = _judge(api)
    static = [field.name for field in fields]
    by_value = []
    for field in fields:
        by_default = _by_default(api, field, judge)
        by_value += [field.name] if by_default.known else []
        problem = (
            _declared_problem(info, field, judge, by_default)
            or _default_problem(api, field, judge)
            or assigned_problem(info.defn, field.name, field.default, judge)
        )
        if problem is not None:
            where = phrases.library_field(f"{class_name(info)}.{field.name}", marker.marker)
            _report(api, where, with_evidence(api, problem, info, field.name, static=static), marker, field.context)
    return by_value


def _check_static_class(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface, info: TypeInfo, context: Context
) -> None:
    """A class registered static is hashed into jit's cache key as a whole: by its own
    ``__hash__`` over what that hashes, else its fields are checked one by one."""
    instance = Instance(info, [AnyType(TypeOfAny.special_form)] * len(info.defn.type_vars))
    problem = class_problem(instance, _judge(api), frozenset() if defines_hash(info) else None)
    if problem is not None:
        where = phrases.library_field(class_name(info), JAX_STATIC_CLASS.marker)
        _report(api, where, with_evidence(api, problem), JAX_STATIC_CLASS, context)


def _report(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface,
    where: str,
    problem: Problem,
    marker: StaticMarker,
    context: Context,
) -> None:
    problem = problem._replace(fix=fix_for(problem.rule, marker, problem.fix))
    report(api, problem, where, context)


def _declared_problem(info: TypeInfo, field: StaticField, judge: Judge, by_default: Verdict) -> Problem | None:
    """What the field's declared type admits that breaks a hash, unless construction replaces
    what it is given with values known to hash (``self.params = immutabledict(params)`` for a
    field declared ``dict``): it holds those; and unless its default decides (``by_default``,
    known)."""
    if constructed_verdict(info.defn, field.name, judge) == FINE:
        return None
    return by_default.problem if by_default.known else static_problem(field.type, judge)


def _by_default(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface, field: StaticField, judge: Judge
) -> Verdict:
    """A field declared an array type, which JAX code declares a scalar with, judged by the value
    its default makes, where that is known: a tuple of numbers hashes and compares, one holding
    lists is judged as lists are; a 0-d array of a number (``default_factory=lambda:
    jnp.array(160)``) compares as the number, so only its opt-in twin (``phrases.unobserved``).
    A construction that gives it another value is judged by what it gives
    (``metadata.LibraryFields.by_value``, ``constructors``). Not known where the default does not
    decide: no default, one made otherwise, or None (which the declared type does not admit: a
    placeholder that later code fills)."""
    made = field.made_by_default
    placeholder = isinstance(made, NameExpr) and made.fullname == "builtins.None"
    if made is None or placeholder or not is_array_type(field.type):
        return UNKNOWN
    if not compares_as_number(api, made):
        return made_verdict(made, judge)
    declared = static_problem(field.type, judge)
    return Verdict(phrases.unobserved(declared), True) if declared is not None else UNKNOWN


def _default_problem(
    api: SemanticAnalyzerPluginInterface | CheckerPluginInterface, field: StaticField, judge: Judge
) -> Problem | None:
    """A bound method as the field's default (``fn: Callable = struct.field(default=obj.run, ...)``)."""
    if field.default is None or not isinstance(api, SemanticAnalyzerPluginInterface):
        return None
    return default_problem(field.default, api, judge)


def _judge(api: SemanticAnalyzerPluginInterface | CheckerPluginInterface) -> Judge:
    """A lenient judge (the value may be a union's best member; ``jaxtypes.audit`` sees the
    value) that records the classes a field's type names as dependencies: of the class in
    semantic analysis, of the code being checked in the checker."""
    judge = analyser_judge(api) if isinstance(api, SemanticAnalyzerPluginInterface) else recorder(api)
    return judge._replace(lenient=True)
