"""Which functions of the module a jit (``names.JITS``: ``jax.jit``, ``jax.pmap``) compiles: a
decorator (on a method, a module-level or a local ``def``), or a call ``jax.jit(f)`` naming the
function; which jax.lax's control flow traces (``jax.lax.fori_loop(0, n, body, x)``); and which
methods a class jits itself, recorded for readers in other modules (``record_jitted_methods``)."""

from __future__ import annotations

from collections.abc import Collection

from mypy.nodes import CallExpr, Decorator, Expression, FuncDef, MemberExpr, MypyFile, NameExpr, RefExpr, SymbolNode
from mypy.plugin import ClassDefContext

from jaxtypes._vocabulary.names import JITS, LAX_TRACED_FUNCTIONS, PARTIAL
from mypy_plugin.metadata import JittedMethods
from mypy_plugin.method_bodies import instance_methods, is_name
from mypy_plugin.mypy_internals import checked_module
from mypy_plugin.static_values import makes_function
from mypy_plugin.statements import calls, placed, walk


def jitting(tree: MypyFile, function: FuncDef) -> list[CallExpr | RefExpr]:
    """What jits ``function``: its decorators that do (``@jax.jit``, ``@jax.jit(static_argnums=...)``,
    ``@partial(jax.pmap, ...)``), then the module's calls ``jax.jit(function, ...)``."""
    decorated = _decorated(tree, function)
    decorators = decorated.original_decorators if decorated is not None else []
    jits = [d for d in decorators if isinstance(d, (CallExpr, RefExpr)) and is_jit(tree, d)]
    return [*jits, *_jit_calls(tree, function)]


def is_jit(tree: MypyFile, expr: Expression, jits: Collection[str] = JITS.keys()) -> bool:
    """``expr`` is a jit (``jits``: ``jax.jit``, ``jax.pmap``), a call of one, or ``partial(jax.jit,
    ...)``; a name the analyser has not bound yet is resolved through the module's symbol table."""
    if not isinstance(expr, CallExpr):
        return resolved_fullname(tree, expr) in jits
    callee, args = resolved_fullname(tree, expr.callee), expr.args
    return callee in jits or (callee == PARTIAL and bool(args) and resolved_fullname(tree, args[0]) in jits)


def resolved_fullname(tree: MypyFile, expr: Expression) -> str | None:
    """The full name of what ``expr`` refers to: its bound node's, else, where the analyser has not
    bound it yet (a base class's hook runs before later statements are), through the module's
    symbol table, where imports come first, and the modules it imports (``jax.jit``)."""
    node = _resolved(tree, expr)
    return node.fullname if node is not None else None


def _resolved(tree: MypyFile, expr: Expression) -> SymbolNode | None:
    if isinstance(expr, RefExpr) and expr.node is not None:
        return expr.node
    if isinstance(expr, NameExpr):
        symbol = tree.names.get(expr.name)
        return symbol.node if symbol is not None else None
    if isinstance(expr, MemberExpr):
        owner = _resolved(tree, expr.expr)
        symbol = owner.names.get(expr.name) if isinstance(owner, MypyFile) else None
        return symbol.node if symbol is not None else None
    return None


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
    decorator would; also of what a jax transformation makes of it (``jax.jit(jax.grad(loss))``):
    those keep its positions, and jit traces each one not static."""
    return [
        call
        for call in calls(tree.defs)
        if isinstance(call.callee, RefExpr)
        and call.callee.fullname in JITS
        and call.args
        and _names(call.args[0], function)
    ]


def _names(expr: Expression, function: FuncDef) -> bool:
    """``expr`` names ``function``, or is a jax transformation of what does (``jax.grad(f)``)."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.args and makes_function(expr.callee):
        return _names(expr.args[0], function)
    return isinstance(expr, RefExpr) and expr.fullname == function.fullname


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


def record_jitted_methods(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the methods it jits itself (``JittedMethods``): a call of one
    runs code compiled for what the instance held when jit traced it."""
    info, tree = ctx.cls.info, checked_module(ctx.api)
    JittedMethods.erase(info)
    if tree is None:
        return
    names = {
        stmt.func.name
        for stmt in ctx.cls.defs.body
        if isinstance(stmt, Decorator) and any(is_jit(tree, d) for d in stmt.original_decorators)
    }
    for method in instance_methods(ctx.cls):
        this = method.arguments[0].variable.name if method.arguments else None
        for call in calls([method.body]) if this is not None else []:
            given = call.args[0] if call.args else None
            if (is_jit(tree, call) or is_jit(tree, call.callee)) and isinstance(given, MemberExpr):
                if is_name(given.expr, this):
                    names.add(given.name)
    if names:
        JittedMethods(tuple(sorted(names))).write(info)
