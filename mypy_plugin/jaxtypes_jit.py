"""Checks on ``jaxtypes.jit``: what it refuses when a function is jitted, reported by mypy.

At ``@jaxtypes.jit``, ``@jaxtypes.jit(...)`` and ``jaxtypes.jit(f)``, with the runtime's words
(``jaxtypes/_jit/jaxtypes_jit.py``):

- a ``Static[T]`` parameter whose ``T`` can never be a correct static value (``static-*``), a
  misplaced marker or a static ``*args`` (``marker-misuse``);
- a traced parameter of a type jit cannot trace (``jit-unsupported-argument``);
- a jitted method of a class that is neither a static nor a pytree dataclass
  (``jit-method-self``), and ``jaxtypes.jit(obj.method)`` of a mutable ``obj``
  (``jit-bound-method``).

A parameter is reported at its own line under the decorator form, at the ``jaxtypes.jit(...)``
argument under the call form. The static parameters (``Static[...]``, typed as a static
dataclass, a static class's ``self``, and literal ``static_argnums``/``static_argnames``)
travel in the ``Jitted`` type it returns (``static_positions``), so calls are checked in any
module; ``Jitted.__get__`` keeps them, shifted past ``self``, when a method is bound.
"""

from __future__ import annotations

from mypy.nodes import ARG_POS, ARG_STAR, Context, Decorator, Expression, FuncDef, MemberExpr, RefExpr, TypeInfo
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Instance, NoneType, Type, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.positions import is_static
from mypy_plugin.classes import is_static_class, is_static_class_type
from mypy_plugin.declared_types import jaxtypes_role, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_targets import (
    check_bound_method,
    function_of,
    method_owner,
    refers_to_class,
)
from mypy_plugin.jitted_types import Statics
from mypy_plugin.markers import class_name, function_name, read_marker
from mypy_plugin.reporting import report
from mypy_plugin.jit_statics import read_statics
from mypy_plugin.traced_types import traced_problem

FACTORY_NAME = "jaxtypes.jit decorator"
"""The name given to what ``jaxtypes.jit(device=...)`` returns; ``factory_hook`` claims it."""


def jit_hook(ctx: FunctionContext) -> Type:
    """``jaxtypes.jit(f, ...)``, ``@jaxtypes.jit`` and ``jaxtypes.jit(device=...)``."""
    explicit = read_statics(ctx) or Statics((), ())
    if ctx.args and ctx.args[0] and ctx.arg_kinds[0][0] == ARG_POS:
        return _check_jitted(ctx, explicit, ctx.args[0][0], ctx.arg_types[0][0])
    returned = get_proper_type(ctx.default_return_type)
    wrapped = get_proper_type(returned.ret_type) if isinstance(returned, CallableType) else None
    if not isinstance(returned, CallableType) or not isinstance(wrapped, Instance):
        return ctx.default_return_type
    return returned.copy_modified(name=FACTORY_NAME, ret_type=explicit.attach(ctx.api, wrapped))


def factory_hook(ctx: FunctionContext) -> Type:
    """The function given to the decorator ``jaxtypes.jit(...)`` returned."""
    if not ctx.args or not ctx.args[0]:
        return ctx.default_return_type
    explicit = Statics.carried(ctx.default_return_type) or Statics((), ())
    return _check_jitted(ctx, explicit, ctx.args[0][0], ctx.arg_types[0][0])


def get_hook(ctx: MethodContext) -> Type:
    """``obj.method`` of a jitted method: the bound ``Jitted`` keeps the positions after ``self``."""
    statics = Statics.carried(ctx.type)
    returned = get_proper_type(ctx.default_return_type)
    if statics is None or not isinstance(returned, Instance) or not ctx.arg_types or not ctx.arg_types[0]:
        return ctx.default_return_type
    unbound = isinstance(get_proper_type(ctx.arg_types[0][0]), NoneType)
    return (statics if unbound else statics.bound()).attach(ctx.api, returned)


def _check_jitted(ctx: FunctionContext, explicit: Statics, fun: Expression, fun_type: Type) -> Type:
    """Check what is being jitted; return the ``Jitted`` type carrying its static positions."""
    result = ctx.default_return_type
    check_bound_method(ctx, fun, "jaxtypes.jit", needs_evidence=False)
    signature = get_proper_type(fun_type)
    if not isinstance(signature, CallableType):
        return result
    function, owner, skip_self = _jitted_def(ctx, fun)
    static_names: list[str] = []
    if function is not None:  # else a lambda or a callable value: no annotations to read
        qualname = function_name(function)
        contexts = _parameter_contexts(ctx, function, signature, fun)
        static_names = _check_parameters(ctx, signature, qualname, skip_self, contexts)
        if owner is not None:
            static_names += _check_self(ctx, owner, signature, qualname, fun)
    statics = (Statics((), static_names) | explicit).resolved(signature)
    returned = get_proper_type(result)
    if (statics.nums or statics.names) and isinstance(returned, Instance):
        return statics.attach(ctx.api, returned)
    return result


def _jitted_def(ctx: FunctionContext, fun: Expression) -> tuple[FuncDef | None, TypeInfo | None, bool]:
    """The ``def`` being jitted, the class whose method it is jitted as, and whether the
    signature's first parameter is a ``self`` to leave to that class (or, for ``Class.method``,
    unchecked: ``self`` is left unannotated, and the runtime reads only annotations)."""
    function = function_of(ctx.context, fun)
    if function is not None:
        owner = method_owner(function)
        return function, owner, owner is not None
    if not isinstance(fun, MemberExpr):
        return None, None, False
    function = _method_def(ctx, fun)
    unbound = function is not None and refers_to_class(fun.expr) and method_owner(function) is not None
    return function, None, unbound


def _method_def(ctx: FunctionContext, fun: MemberExpr) -> FuncDef | None:
    """The ``def`` behind ``obj.method`` or ``Class.method``."""
    expr = fun.expr
    if isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo):
        info: TypeInfo | None = expr.node
    else:
        owner = get_proper_type(ctx.api.get_expression_type(fun.expr))
        info = owner.type if isinstance(owner, Instance) else None
    symbol = info.get(fun.name) if info is not None else None
    node = symbol.node if symbol is not None else None
    if isinstance(node, Decorator):
        node = node.func
    return node if isinstance(node, FuncDef) else None


def _check_self(
    ctx: FunctionContext, owner: TypeInfo, signature: CallableType, qualname: str, fun: Expression
) -> list[str]:
    """``self``, an unmarked parameter typed as its class, is static for a static class and traced
    for a pytree class (``is_static``); any other class is refused."""
    if jaxtypes_role(owner) is None:
        problem = phrases.plain_class_self(class_name(owner))
        report(ctx.api, problem, qualname, fun)
    static = is_static(None, static_class_type=is_static_class(owner))
    return [name for name in signature.arg_names[:1] if name is not None and static]


def _check_parameters(
    ctx: FunctionContext, signature: CallableType, qualname: str, skip_self: bool, contexts: list[Context]
) -> list[str]:
    """Report each parameter jit would refuse (``self`` aside); return the names of the static ones."""
    static_names = []
    parameters = zip(signature.arg_names, signature.arg_kinds, signature.arg_types, contexts)
    for name, kind, typ, context in list(parameters)[int(skip_self) :]:
        marker, inner, problem = read_marker(typ)
        static = is_static(marker, static_class_type=is_static_class_type(inner))
        if problem is None and static and kind.is_star():
            problem = phrases.static_variadic("*" if kind == ARG_STAR else "**", str(name))
        elif problem is None and marker == "static":
            problem = static_problem(inner, recorder(ctx.api))
        elif problem is None and not static:
            problem = traced_problem(ctx.api, inner)
        if static and name is not None:
            static_names.append(name)
        if problem is not None:
            where = phrases.parameter(name, qualname)
            report(ctx.api, problem, where, context)
    return static_names


def _parameter_contexts(
    ctx: FunctionContext, function: FuncDef, signature: CallableType, fun: Expression
) -> list[Context]:
    """Where to report each parameter: its own line under a decorator, else the jit call's argument."""
    arguments = function.arguments
    if isinstance(ctx.context, Decorator) and [a.variable.name for a in arguments] == signature.arg_names:
        return list(arguments)
    return [fun] * len(signature.arg_names)
