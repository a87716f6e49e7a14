"""Call hooks: bound methods, lambdas and local functions passed into static fields by
constructors and ``dataclasses.replace``.

Which arguments are static comes from the class's records (``metadata``) (every field of a static class, the
``meta_fields`` of a pytree class, the fields another library's marker made static:
``library_fields``), so the check works on classes from the cache and from other workers.
"""

from __future__ import annotations

from mypy.nodes import Expression, MemberExpr, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import Instance, Type, get_proper_type

from jaxtypes._vocabulary import phrases
from mypy_plugin.dependencies import recorder
from mypy_plugin.markers import class_name
from mypy_plugin.metadata import ClassFacts, LibraryFields
from mypy_plugin.mypy_internals import enclosing_functions
from mypy_plugin.reporting import report
from mypy_plugin.static_values import bound_method_problem, fresh_callable_problem


def constructor_hook(ctx: FunctionContext) -> Type:
    """``Config(fn=obj.method)``: check the arguments that land in static fields."""
    info = _checked_class(ctx.default_return_type)
    if info is not None:
        for names, exprs in zip(ctx.callee_arg_names, ctx.args):
            for expr in exprs:
                _check_argument(ctx.api, info, names, expr)
    return ctx.default_return_type


def replace_hook(ctx: FunctionContext) -> Type:
    """``dataclasses.replace(config, fn=obj.method)``: the same check on the changed fields."""
    if ctx.arg_types and ctx.arg_types[0]:
        info = _checked_class(ctx.arg_types[0][0])
        if info is not None:
            for names, exprs in zip(ctx.arg_names[1:], ctx.args[1:]):
                for name, expr in zip(names, exprs):
                    _check_argument(ctx.api, info, name, expr)
    return ctx.default_return_type


def _check_argument(api: CheckerPluginInterface, info: TypeInfo, name: str | None, expr: Expression) -> None:
    judge = recorder(api)
    for base in info.mro:  # which fields are static comes from their metadata
        judge.looked_through(base)
    where = _static_field(info, name) if name is not None else None
    if where is None:
        return
    if isinstance(expr, MemberExpr):
        problem = bound_method_problem(expr, api.get_expression_type(expr.expr), judge)
    else:
        problem = fresh_callable_problem(expr, *enclosing_functions(api))
    if problem is not None:
        report(api, problem, where, expr)


def _static_field(info: TypeInfo, name: str) -> str | None:
    """How a problem names field ``name`` of ``info`` if it is static, else None: every field of a
    static class, the meta fields of a pytree class, the fields another library's marker made
    static (in the class or a base), with that marker."""
    facts = ClassFacts.read(info)
    if facts is not None:
        return f"{class_name(info)}.{name}" if facts.role == "static" or name in facts.meta_fields else None
    for base in info.mro:
        fields = LibraryFields.read(base)
        if fields is not None and name in fields.fields:
            return phrases.library_field(f"{class_name(info)}.{name}", fields.marker)
    return None


def has_static_fields(info: TypeInfo) -> bool:
    """A jaxtypes class, or a class with static fields declared with another library's marker."""
    return ClassFacts.read(info) is not None or LibraryFields.inherited(info) is not None


def _checked_class(typ: Type) -> TypeInfo | None:
    proper = get_proper_type(typ)
    return proper.type if isinstance(proper, Instance) and has_static_fields(proper.type) else None
