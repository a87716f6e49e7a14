"""Which parameters hold tracers: a parameter of a function that jit traces (not in its static
positions), that jax.lax's control flow traces (a loop's body, a branch of ``cond``), or that a
jax transformation traces (``jax.grad``'s ``argnums``, what ``jax.vmap``'s ``in_axes`` maps), and
one that a jitted function of the module passes its own traced parameter to. Such a value in a
static position, a custom derivative rule's nondiff position or pytree metadata is a tracer
there, whatever its declared type."""

from __future__ import annotations

from typing import TypeGuard

from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    Expression,
    FuncDef,
    FuncItem,
    IntExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    TupleExpr,
    Var,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import CallableType

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import DIFFERENTIATING_TRANSFORMS, JAX_VMAP, TRACING_TRANSFORMS
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.captured_values import given_for
from mypy_plugin.jit_statics import jitted_statics, literal_value
from mypy_plugin.jit_targets import holds_no_leaves
from mypy_plugin.jitted_functions import jitting, traced_by_lax
from mypy_plugin.markers import function_name
from mypy_plugin.method_bodies import definition
from mypy_plugin.mypy_internals import checked_module, enclosing_functions, get_subexpressions
from mypy_plugin.statements import calls, is_name, placed, walk


def tracer_problem(api: CheckerPluginInterface, expr: Expression) -> Problem | None:
    """``static-dynamic-child`` for a parameter of an enclosing function that jit traces (not in
    its static positions), that jax.lax's control flow traces (a loop's body: its index too), or
    that a jax transformation traces (``transformed``: ``jax.grad(lambda w: ...)``; not a jitted
    function's, whose static positions the transformation's call is checked against): a tracer
    there, whatever its declared type."""
    tree = checked_module(api)
    if not isinstance(expr, NameExpr) or not isinstance(expr.node, Var) or tree is None:
        return None
    for function in enclosing_functions(api)[1]:
        parameters = [argument.variable for argument in function.arguments] if isinstance(function, FuncItem) else []
        if expr.node not in parameters or not isinstance(function, FuncItem):
            continue
        owner = function_name(function) if isinstance(function, FuncDef) else "a lambda"
        jitted = isinstance(function, FuncDef) and bool(jitting(tree, function))
        primitive = None if jitted else transformed(tree, function, parameters.index(expr.node))
        if primitive is not None:  # a jitted function's own positions decide (checked where it is called)
            return phrases.transformed_parameter(expr.node.name, owner, primitive, control_flow=False)
        primitive = traced_by_lax(tree, function) if isinstance(function, FuncDef) else None
        if primitive is not None:
            return phrases.transformed_parameter(expr.node.name, owner, primitive, control_flow=True)
        if not isinstance(function, FuncDef):
            continue
        if not jitted:
            return _given_a_tracer(api, tree, function, parameters.index(expr.node))
        traced = _traced_parameter_of(api, function, expr)
        if traced is None:
            return None
        problem = phrases.traced_parameter(traced, owner)
        return problem if _ever_given(tree, function, expr.node) else phrases.unobserved(problem)
    return None


def transformed(tree: MypyFile, function: FuncItem, index: int) -> str | None:
    """The public name of the jax transformation a call of the module gives ``function`` to
    (``jax.grad(lambda w: ...)``, ``jax.vmap(f, in_axes=(0, None))``) that traces its parameter at
    ``index``: one that ``argnums`` names (the first, by default), one that ``in_axes`` maps."""
    for call in calls(tree.defs):
        name = call.callee.fullname if isinstance(call.callee, RefExpr) else None
        public = DIFFERENTIATING_TRANSFORMS.get(name) if name is not None else None
        given = call.args[0] if call.args and call.arg_kinds[0] == ARG_POS else None
        if (public is None and not is_vmap(call)) or given is None:
            continue
        if not (given is function or isinstance(given, RefExpr) and definition(given.node) is function):
            continue
        if not _given_through(tree, call, function, index):
            continue
        if public is not None and index in _argnums(call):
            return public
        left = unmapped(call) if public is None else None
        if public is None and left is not None and index not in left:
            return TRACING_TRANSFORMS[JAX_VMAP]
    return None


def _given_through(tree: MypyFile, transform: CallExpr, function: FuncItem, index: int) -> bool:
    """Whether a value reaches the parameter at ``index`` of ``function`` through what
    ``transform`` makes of it: the parameter has no default, or the call of the result made right
    there gives it (``jax.vmap(f)(x, y)``: by position, keyword, ``*args`` or ``**kwargs``). A
    transformation passes on what it is given; a default it never sees is no tracer."""
    argument = function.arguments[index]
    if argument.initializer is None:
        return True
    outer = next((call for call in calls(tree.defs) if call.callee is transform), None)
    if outer is None:
        return False
    if ARG_STAR2 in outer.arg_kinds or argument.variable.name in outer.arg_names:
        return True
    if argument.kind.is_named():  # keyword-only: no position fills it
        return False
    return ARG_STAR in outer.arg_kinds or index < outer.arg_kinds.count(ARG_POS)


def _argnums(call: CallExpr) -> tuple[int, ...]:
    """The positions a differentiating transformation's ``argnums`` names (the first where it is
    not given); none where it is no literal int or tuple of ints."""
    given = dict(placed(call.arg_kinds, call.arg_names, call.args))
    argnums = given.get("argnums", given.get(1))
    value = literal_value(argnums) if argnums is not None else 0
    if isinstance(value, int):
        return (value,)
    items = value if isinstance(value, tuple) else ()
    numbers = tuple(item for item in items if isinstance(item, int))
    return numbers if len(numbers) == len(items) else ()


def _ever_given(tree: MypyFile, function: FuncDef, parameter: Var) -> bool:
    """Whether a value for ``parameter`` of ``function`` may be given: it has no default, or a
    call of the module passes one (or may, through ``**kwargs``, or ``*args`` where it is not
    keyword-only). jit does not trace a default: where no caller passes the parameter, the body
    sees the default itself."""
    argument = next(a for a in function.arguments if a.variable is parameter)
    if argument.initializer is None:
        return True
    for call in calls(tree.defs):
        callee = call.callee
        named = isinstance(callee, MemberExpr) and callee.name == function.name
        if not (named or isinstance(callee, NameExpr) and definition(callee.node) is function):
            continue
        if ARG_STAR2 in call.arg_kinds or parameter.name in call.arg_names:
            return True
        if argument.kind.is_named():  # keyword-only: no position fills it
            continue
        given = given_for(call, function, {parameter})
        if given is None or given:
            return True
    return False


def _given_a_tracer(api: CheckerPluginInterface, tree: MypyFile, function: FuncDef, index: int) -> Problem | None:
    """The parameter at ``index`` of ``function``, which no jit compiles, where a function of the
    module that jit traces calls ``function`` (or ``jax.vmap`` of it) with one of its own traced
    parameters there: inside that trace, a tracer."""
    name = function.arguments[index].variable.name
    jitted: dict[FuncDef, bool] = {}
    for node, _, scope, _ in walk(tree.defs):
        if scope is None or scope is function:
            continue
        if scope not in jitted:
            jitted[scope] = bool(jitting(tree, scope))
        if not jitted[scope]:
            continue
        for call in get_subexpressions(node):
            target = call.callee if isinstance(call, CallExpr) else None
            if (
                isinstance(target, CallExpr)
                and isinstance(target.callee, RefExpr)
                and target.callee.fullname == JAX_VMAP
            ):
                target = target.args[0] if target.args else None
            if (
                not isinstance(call, CallExpr)
                or not isinstance(target, RefExpr)
                or definition(target.node) is not function
            ):
                continue
            given = next(
                (arg for place, arg in placed(call.arg_kinds, call.arg_names, call.args) if place in (index, name)),
                None,
            )
            traced = _traced_parameter_of(api, scope, given) if given is not None else None
            if traced is not None:
                return phrases.given_traced_parameter(
                    name, function_name(function), traced, function_name(scope), call.line
                )
    return None


def _traced_parameter_of(api: CheckerPluginInterface, function: FuncDef, expr: Expression) -> str | None:
    """The name of ``function``'s parameter ``expr`` is, where jit traces it (not static) into a
    tracer: not one declared as what holds no leaf (``jit_targets.holds_no_leaves``: None, a
    class registered static), which jit hands through as it is."""
    parameters = [argument.variable for argument in function.arguments]
    if not isinstance(expr, NameExpr) or expr.node not in parameters:
        return None
    statics = jitted_statics(api, function)
    index = parameters.index(expr.node)
    signature = function.type
    declared = signature.arg_types[index] if isinstance(signature, CallableType) else None
    if declared is not None and holds_no_leaves(declared):
        return None
    return None if statics is None or index in statics.nums or expr.name in statics.names else expr.name


def is_vmap(expr: Expression | None) -> TypeGuard[CallExpr]:
    """``expr`` is a call of ``jax.vmap``."""
    return isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.fullname == JAX_VMAP


def unmapped(vmap: CallExpr) -> tuple[int, ...] | None:
    """The positions ``jax.vmap(f, in_axes)`` passes on unmapped (``in_axes`` None there); None
    where ``in_axes`` is no literal int, nor a tuple or list of ints and None (keyword arguments
    are always mapped)."""
    given = dict(placed(vmap.arg_kinds, vmap.arg_names, vmap.args))
    axes = given.get("in_axes", given.get(1))
    if axes is None or isinstance(axes, IntExpr):
        return ()
    items = axes.items if isinstance(axes, (TupleExpr, ListExpr)) else None
    if items is None or not all(isinstance(item, IntExpr) or is_name(item, "None") for item in items):
        return None
    return tuple(place for place, item in enumerate(items) if is_name(item, "None"))
