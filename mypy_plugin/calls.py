"""Call hooks: bound methods, lambdas and local functions passed into static fields by
constructors and ``dataclasses.replace``.

Which arguments are static comes from the class's ``info.metadata["jaxtypes"]`` (every field of
a static class, the ``meta_fields`` of a pytree class), so the check works on classes from the
cache and from other workers.
"""

from __future__ import annotations

from mypy.nodes import Expression, MemberExpr, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import Instance, Type, get_proper_type

from mypy_plugin.callable_values import bound_method_finding, fresh_callable_finding
from mypy_plugin.codes import error_code
from mypy_plugin.type_rules import METADATA_KEY


def constructor_hook(ctx: FunctionContext) -> Type:
    """``Config(fn=obj.method)``: check the arguments that land in static fields."""
    info = _jaxtypes_class(ctx.default_return_type)
    if info is not None:
        for names, exprs in zip(ctx.callee_arg_names, ctx.args):
            for expr in exprs:
                _check_argument(ctx.api, info, names, expr)
    return ctx.default_return_type


def replace_hook(ctx: FunctionContext) -> Type:
    """``dataclasses.replace(config, fn=obj.method)``: the same check on the changed fields."""
    if ctx.arg_types and ctx.arg_types[0]:
        info = _jaxtypes_class(ctx.arg_types[0][0])
        if info is not None:
            for names, exprs in zip(ctx.arg_names[1:], ctx.args[1:]):
                for name, expr in zip(names, exprs):
                    _check_argument(ctx.api, info, name, expr)
    return ctx.default_return_type


def _check_argument(api: CheckerPluginInterface, info: TypeInfo, name: str | None, expr: Expression) -> None:
    facts = info.metadata[METADATA_KEY]
    if name is None or (facts["kind"] == "pytree" and name not in facts["meta_fields"]):
        return
    if isinstance(expr, MemberExpr):
        finding = bound_method_finding(expr, api.get_expression_type(expr.expr))
    else:
        # The checker's scope (not part of the plugin interface) names the enclosing functions.
        scope = getattr(api, "tscope", None)
        module, enclosing = (scope.module or "", scope.functions) if scope is not None else ("", [])
        finding = fresh_callable_finding(expr, module, enclosing)
    if finding is not None:
        api.fail(finding.message(f"{info.name}.{name}"), expr, code=error_code(finding.rule))


def _jaxtypes_class(typ: Type) -> TypeInfo | None:
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and METADATA_KEY in proper.type.metadata:
        return proper.type
    return None
