"""The static positions a jit is told (``static_argnums``, ``static_argnames``, ``jax.pmap``'s
``static_broadcasted_argnums``), and the positions ``jax.custom_jvp``/``custom_vjp`` keep out of
differentiation (``nondiff_argnums``, ``nondiff_argnames``), read where they are literal.

From a jit call's keyword arguments (``read_statics``), and, for a function of the module, from
the decorators or the call that jit it (``jitted_statics``): what the module being checked has in
every mode. A position that is no simple literal (``literal_value``) makes the whole reading
None: a check that knew too little would be wrong.
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
    ReturnStmt,
    SetExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext

from jaxtypes._vocabulary.names import JITS, PARTIAL
from mypy_plugin.jitted_functions import is_jit, jit_keywords, jitting, resolved, resolved_fullname
from mypy_plugin.jitted_types import JAX_JIT_NAME, Statics
from mypy_plugin.mypy_internals import checked_module
from mypy_plugin.statements import walk

_NUMS_KEYWORDS = frozenset({"static_argnums", "static_broadcasted_argnums", "nondiff_argnums"})
"""Where a jit is told its static positions by index: ``jax.jit``'s keyword, ``jax.pmap``'s; and
where ``jax.custom_jvp``/``custom_vjp`` are told the positions their rules close over."""

_STATIC_KEYWORDS = _NUMS_KEYWORDS | {"static_argnames", "nondiff_argnames"}


def read_statics(ctx: FunctionContext, jit: str = JAX_JIT_NAME) -> Statics | None:
    """The static positions given to a call of ``jit``, where each can be evaluated
    (``literal_value``); None if either cannot (the check then knows too little to be right)."""
    arguments = ((name, expr) for names, exprs in zip(ctx.arg_names, ctx.args) for name, expr in zip(names, exprs))
    return named_statics(arguments, jit)


def named_statics(arguments: Iterable[tuple[str | None, Expression]], jit: str = JAX_JIT_NAME) -> Statics | None:
    """The static positions named by the keyword ``arguments`` of a call of ``jit``, or None
    where one cannot be evaluated."""
    values: list[int | str] = []
    for name, expr in arguments:
        if name in _STATIC_KEYWORDS:
            value = literal_value(expr)
            if isinstance(value, (int, str)):
                value = (value,)
            if not isinstance(value, tuple):
                return None
            values += [v for v in value if isinstance(v, int if name in _NUMS_KEYWORDS else str)]
    return Statics((v for v in values if isinstance(v, int)), (v for v in values if isinstance(v, str)), jit=jit)


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
    """The static positions of ``function`` where the module jits it (``jax.jit``, ``jax.pmap``:
    ``jitted_functions.jitting``), read from the first jit whose positions are literal; else None."""
    tree = checked_module(api)
    for jit in jitting(tree, function) if tree is not None else []:
        statics = named_statics(jit_keywords(tree, jit)) if isinstance(jit, CallExpr) else Statics((), ())
        if statics is not None:
            return statics.resolved(function)
    return None


def decorated_statics(api: CheckerPluginInterface, decorated: Decorator) -> Statics | None:
    """The static positions of a decorated ``def``: as its type carries them (what the cache
    keeps of another module's), else, for a ``def`` of the module being checked, as the module
    jits it (``jitted_statics``: its type is not inferred yet where the checker has not reached
    it; another module's decorators are gone in the cache)."""
    carried = Statics.carried(decorated.var.type) if decorated.var.type is not None else None
    tree = checked_module(api)
    own = tree is not None and decorated.func.fullname.startswith(f"{tree.fullname}.")
    return carried or (jitted_statics(api, decorated.func) if own else None)


def returned_statics(tree: MypyFile, function: FuncDef) -> Statics | None:
    """The static positions of the jitted function that every ``return`` of ``function``, a
    top-level function of the module ``tree`` (read from source, in every mode), gives back: a
    ``def`` of its body that a jit decorates (``@partial(jax.jit, static_argnums=(0, 1)) def
    run(...)``, then ``return run``), or a jit called where it is returned (``return
    jax.jit(step, static_argnames="n")``). None where a ``return`` gives anything else, or the
    returns disagree, or a position cannot be read."""
    if function not in tree.defs:
        return None
    found = [
        _returned_jit(tree, node.expr)
        for node, _, scope, _ in walk([function.body], scope=function)
        if scope is function and isinstance(node, ReturnStmt)
    ]
    first = found[0] if found else None
    if first is None or any(s is None or (s.nums, s.names) != (first.nums, first.names) for s in found):
        return None
    return first


def _returned_jit(tree: MypyFile, expr: Expression | None) -> Statics | None:
    """The static positions of what ``expr``, a returned expression, gives back jitted."""
    if isinstance(expr, NameExpr) and isinstance(expr.node, Decorator):
        jits = [d for d in expr.node.original_decorators if is_jit(tree, d)]
        function: object = expr.node.func
    elif isinstance(expr, CallExpr) and is_jit(tree, expr.callee) and expr.args:
        # jax.jit(step, ...), or partial(jax.jit, ...)(step), whose keywords the partial holds
        jits = [expr.callee if isinstance(expr.callee, CallExpr) else expr]
        given = resolved(tree, expr.args[0])
        function = given.func if isinstance(given, Decorator) else given
    else:
        return None
    if len(jits) != 1:
        return None
    jit = jits[0]
    head = jit.callee if isinstance(jit, CallExpr) else jit
    if isinstance(jit, CallExpr) and resolved_fullname(tree, head) == PARTIAL and jit.args:
        head = jit.args[0]
    name = JITS.get(resolved_fullname(tree, head) or "", JAX_JIT_NAME)
    statics = named_statics(jit_keywords(tree, jit), name) if isinstance(jit, CallExpr) else Statics((), (), jit=name)
    return statics.resolved(function) if statics is not None and isinstance(function, FuncDef) else statics
