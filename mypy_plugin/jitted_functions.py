"""Which functions of the module a jit (``names.JITS``: ``jax.jit``, ``jax.pmap``) compiles: a
decorator (on a method, a module-level or a local ``def``), or a call ``jax.jit(f)`` naming the
function; and which jax.lax's control flow
traces (``jax.lax.fori_loop(0, n, body, x)``)."""

from __future__ import annotations

from mypy.nodes import CallExpr, Decorator, Expression, FuncDef, MypyFile, RefExpr

from jaxtypes._vocabulary.names import JITS, LAX_TRACED_FUNCTIONS, PARTIAL
from mypy_plugin.statements import calls, placed, walk


def jitting(tree: MypyFile, function: FuncDef) -> list[CallExpr | RefExpr]:
    """What jits ``function``: its decorators that do (``@jax.jit``, ``@jax.jit(static_argnums=...)``,
    ``@partial(jax.pmap, ...)``), then the module's calls ``jax.jit(function, ...)``."""
    decorated = _decorated(tree, function)
    decorators = decorated.original_decorators if decorated is not None else []
    return [*(d for d in decorators if isinstance(d, (CallExpr, RefExpr)) and is_jit(d)), *_jit_calls(tree, function)]


def is_jit(expr: Expression) -> bool:
    """``expr`` is a jit (``jax.jit``, ``jax.pmap``), a call of one, or ``partial(jax.jit, ...)``."""
    if isinstance(expr, RefExpr):
        return expr.fullname in JITS
    if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
        return False
    callee, args = expr.callee.fullname, expr.args
    return callee in JITS or (
        callee == PARTIAL and bool(args) and isinstance(args[0], RefExpr) and args[0].fullname in JITS
    )


def _decorated(tree: MypyFile, function: FuncDef) -> Decorator | None:
    """The decorated definition of ``function``: in its class's or the module's names, or among
    the statements of the function it is defined in."""
    if not function.is_decorated:
        return None
    symbol = (function.info.names if function.info else tree.names).get(function.name)
    if symbol is not None and isinstance(symbol.node, Decorator) and symbol.node.func.fullname == function.fullname:
        return symbol.node
    bodies = [node.body.body for node, *_ in walk(tree.defs, definitions=True) if isinstance(node, FuncDef)]
    return next((s for body in bodies for s in body if isinstance(s, Decorator) and s.func is function), None)


def _jit_calls(tree: MypyFile, function: FuncDef) -> list[CallExpr]:
    """The calls ``jax.jit(function, ...)`` (or of another jit) in the module, which jit it as its
    decorator would."""
    return [
        call
        for call in calls(tree.defs)
        if isinstance(call.callee, RefExpr)
        and call.callee.fullname in JITS
        and call.args
        and isinstance(call.args[0], RefExpr)
        and call.args[0].fullname == function.fullname
    ]


def traced_by_lax(tree: MypyFile, function: FuncDef) -> str | None:
    """The public name of the jax.lax control flow (``names.LAX_TRACED_FUNCTIONS``) that a call of
    the module gives ``function`` to trace, by its name; None where none does."""
    for call in calls(tree.defs):
        known = LAX_TRACED_FUNCTIONS.get(call.callee.fullname) if isinstance(call.callee, RefExpr) else None
        if known is None:
            continue
        public, places = known
        if any(
            place in places and isinstance(arg, RefExpr) and arg.node is function
            for place, arg in placed(call.arg_kinds, call.arg_names, call.args)
        ):
            return public
    return None
