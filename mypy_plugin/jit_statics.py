"""Which functions ``jax.jit`` jits, and the static positions it names for them.

Read from a jit call's keyword arguments (``read_statics``), and, for a function of the module,
from its decorators as written or a call that jits it by name (``jitted_statics``): what the
module being checked has in every mode. Positions can be read only where each is a simple
literal (``literal_value``): a check that knew too little would be wrong.
"""

from __future__ import annotations

from collections.abc import Iterable

from mypy.nodes import (
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    IntExpr,
    ListExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    RefExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext

from jaxtypes._vocabulary.names import JAX_JIT, PARTIAL
from mypy_plugin.jitted_types import Statics
from mypy_plugin.mypy_internals import checked_module
from mypy_plugin.statements import calls, walk


def read_statics(ctx: FunctionContext) -> Statics | None:
    """``static_argnums``/``static_argnames`` given to a jit call, where each can be evaluated
    (``literal_value``); None if either cannot (the check then knows too little to be right)."""
    return named_statics(
        (name, expr) for names, exprs in zip(ctx.arg_names, ctx.args) for name, expr in zip(names, exprs)
    )


def named_statics(arguments: Iterable[tuple[str | None, Expression]]) -> Statics | None:
    """The static positions named by the keyword ``arguments`` of a jit call, or None where one
    cannot be evaluated."""
    values: dict[str, list[int | str]] = {"static_argnums": [], "static_argnames": []}
    for name, expr in arguments:
        if name in values:
            value = literal_value(expr)
            if isinstance(value, (int, str)):
                value = (value,)
            if not isinstance(value, tuple):
                return None
            values[name] = list(value)
    nums = [v for v in values["static_argnums"] if isinstance(v, int)]
    argnames = [v for v in values["static_argnames"] if isinstance(v, str)]
    return Statics(nums, argnames)


Literal = int | str | tuple["Literal", ...]


def literal_value(expr: Expression) -> Literal | None:
    """The value of a simple literal expression: ints and strings, ``-n``, tuples, lists and sets
    of literals (``static_argnames={"y"}``: the order does not matter), ``range(...)`` of ints,
    ``tuple(...)``/``list(...)`` of those, and ``+`` of two sequences (``(0,) + tuple(range(2,
    5))``); sequences come back as tuples. None otherwise."""
    if isinstance(expr, (IntExpr, StrExpr)):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        value = literal_value(expr.expr)
        return -value if isinstance(value, int) else None
    if isinstance(expr, (TupleExpr, ListExpr, SetExpr)):
        items = [literal_value(item) for item in expr.items]
        return None if None in items else tuple(item for item in items if item is not None)
    if isinstance(expr, OpExpr) and expr.op == "+":
        left, right = literal_value(expr.left), literal_value(expr.right)
        return left + right if isinstance(left, tuple) and isinstance(right, tuple) else None
    if not isinstance(expr, CallExpr) or not isinstance(expr.callee, NameExpr) or any(expr.arg_names):
        return None
    arguments = [literal_value(arg) for arg in expr.args]
    numbers = [argument for argument in arguments if isinstance(argument, int)]
    if expr.callee.fullname == "builtins.range" and len(numbers) == len(arguments) and 1 <= len(numbers) <= 3:
        return tuple(range(*numbers))
    if expr.callee.fullname in ("builtins.tuple", "builtins.list") and len(arguments) == 1:
        return arguments[0] if isinstance(arguments[0], tuple) else None
    return None


def jitted_statics(api: CheckerPluginInterface, function: FuncDef) -> Statics | None:
    """The static positions of ``function`` where it is jitted with ``jax.jit``, read from its
    decorators as written (``@jax.jit``, ``@jax.jit(static_argnums=...)``,
    ``@partial(jax.jit, ...)``; on a local ``def`` too) or from a call that jits it by name
    (``jax.jit(fit)``); else None."""
    tree = checked_module(api)
    if tree is None:
        return None
    decorated = _decorated(tree, function)
    for jitting in [*(decorated.original_decorators if decorated else []), *_jit_calls(tree, function)]:
        statics = _decorator_statics(jitting)
        if statics is not None:
            return statics.resolved(function)
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


def _jit_calls(tree: MypyFile | None, function: FuncDef) -> list[CallExpr]:
    """The calls ``jax.jit(function, ...)`` in the module, which jit it as its decorator would."""
    return [
        call
        for call in calls(tree.defs if tree is not None else [])
        if isinstance(call.callee, RefExpr)
        and call.callee.fullname == JAX_JIT
        and call.args
        and isinstance(call.args[0], RefExpr)
        and call.args[0].fullname == function.fullname
    ]


def _decorator_statics(decorator: Expression) -> Statics | None:
    """The static positions a ``jax.jit`` decorator names, if it is one and they are literal."""
    if isinstance(decorator, RefExpr):
        return Statics((), ()) if decorator.fullname == JAX_JIT else None
    if not isinstance(decorator, CallExpr) or not isinstance(decorator.callee, RefExpr):
        return None
    callee, args = decorator.callee.fullname, decorator.args
    partial = callee == PARTIAL and bool(args) and isinstance(args[0], RefExpr) and args[0].fullname == JAX_JIT
    if callee != JAX_JIT and not partial:
        return None
    return named_statics(zip(decorator.arg_names, args))
