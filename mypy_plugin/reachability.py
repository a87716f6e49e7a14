"""Whether a call's arguments keep the function it runs from reaching a statement.

A loop that calls a function makes again what the function makes only where the call gets there:
``report(model, include_hessian=False)`` returns at ``if not include_hessian: return report``
before the ``jax.jit(jax.hessian(...))`` below it, and ``summary(objective=None)`` never enters
``if objective is not None:``. Only what is certain is read: the literal values a call passes
(``None``, ``True``, ``False``, a number, a string) or the literal defaults of what it leaves out,
a value the module makes where no path gives None (``value_origins.never_none``:
``fit(alpha=base["alpha"])`` never enters ``if alpha is None:``), the tests of a parameter by
truth and by ``is None`` (with ``not``, ``and``, ``or``), the branches of an ``if`` and an ``if``
before that ends in ``return`` or ``raise``.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import (
    Block,
    CallExpr,
    ComparisonExpr,
    Context,
    Expression,
    FloatExpr,
    ForStmt,
    FuncDef,
    IfStmt,
    IntExpr,
    NameExpr,
    Node,
    OpExpr,
    RaiseStmt,
    ReturnStmt,
    StrExpr,
    TryStmt,
    UnaryExpr,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

from mypy_plugin.captured_values import bindings, given_for
from mypy_plugin.dataclass_options import written_bool
from mypy_plugin.mypy_internals import get_subexpressions
from mypy_plugin.statements import present, walk
from mypy_plugin.value_origins import CONSTANTS, never_none

UNKNOWN = object()
"""A value not known before the call runs."""

SOME = object()
"""A value known only not to be None."""


def skipped(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
    call: CallExpr,
    scope: FuncDef | None,
    function: FuncDef,
    site: Context,
) -> bool:
    """Whether ``call`` (in ``scope``), which runs ``function``, cannot reach ``site`` (an
    expression of its body) for the literal values it gives its parameters, or the values it
    gives that are never None."""
    known: dict[str, object] = {}
    for argument in function.arguments:
        given = given_for(call, function, {argument.variable})
        if given is None:
            return False
        value = _literal(given[0]) if given else _literal(argument.initializer)
        if value is UNKNOWN and given and never_none(api, given[0], call.line, scope):
            value = SOME
        if value is not UNKNOWN:
            known[argument.variable.name] = value
    return bool(known) and _reaches(function.body.body, site, known, function) is False


def _literal(expr: Expression | None) -> object:
    """The value ``expr`` writes: ``None``, ``True``, ``False``, a number, a string; else ``UNKNOWN``."""
    if isinstance(expr, NameExpr) and expr.fullname in CONSTANTS:
        return written_bool(expr)  # None for None
    return expr.value if isinstance(expr, (IntExpr, FloatExpr, StrExpr)) else UNKNOWN


def _reaches(nodes: Sequence[Node], site: Context, known: dict[str, object], function: FuncDef) -> bool | None:
    """Whether the statements ``nodes`` (of ``function``) may reach ``site``: False where they
    cannot, None where ``site`` is not below them. A name the code rebinds on the way is known no
    more (``if alpha is None: alpha = fit(...)`` tests the value given)."""
    for node in nodes:
        if not _holds(node, site):
            if isinstance(node, IfStmt) and _always_leaves(node, known):
                return False
            known = _forget(known, node, function)
            continue
        if isinstance(node, IfStmt) and not any(_holds(condition, site) for condition in node.expr):
            for condition, body in zip(node.expr, node.body):
                truth = _truth(condition, known)
                if _holds(body, site):
                    return truth is not False and _reaches(body.body, site, known, function) is not False
                if truth is True:  # this branch runs: none after it
                    return False
            return node.else_body is None or _reaches(node.else_body.body, site, known, function) is not False
        known = _forget(known, node, function)  # a loop or handler may run its rebinding first
        inner = [block for block in _inner_blocks(node) if _holds(block, site)]
        return not inner or any(_reaches(block.body, site, known, function) is not False for block in inner)
    return None


def _forget(known: dict[str, object], node: Node, function: FuncDef) -> dict[str, object]:
    """``known`` without the names ``node`` rebinds."""
    rebound = {var.name for var in bindings([node], function)}
    return {name: value for name, value in known.items() if name not in rebound} if rebound & known.keys() else known


def _inner_blocks(node: Node) -> list[Block]:
    if isinstance(node, (ForStmt, WhileStmt)):
        return [node.body, *present([node.else_body])]
    if isinstance(node, WithStmt):
        return [node.body]
    if isinstance(node, TryStmt):
        return present([node.body, *node.handlers, node.else_body, node.finally_body])
    return [node] if isinstance(node, Block) else []


def _always_leaves(check: IfStmt, known: dict[str, object]) -> bool:
    """``check``'s first branch runs, for ``known`` values, and ends in ``return`` or ``raise``."""
    body = check.body[0].body
    return _truth(check.expr[0], known) is True and bool(body) and isinstance(body[-1], (ReturnStmt, RaiseStmt))


def _truth(condition: Expression, known: dict[str, object]) -> bool | None:
    """The truth of ``condition`` for the ``known`` values of names; None where not known."""
    if isinstance(condition, NameExpr):
        value = known.get(condition.name, UNKNOWN)
        return None if value is UNKNOWN or value is SOME else bool(value)
    if isinstance(condition, UnaryExpr) and condition.op == "not":
        truth = _truth(condition.expr, known)
        return None if truth is None else not truth
    if isinstance(condition, OpExpr) and condition.op in ("and", "or"):
        left, right = _truth(condition.left, known), _truth(condition.right, known)
        if condition.op == "and":
            return False if False in (left, right) else True if left is right is True else None
        return True if True in (left, right) else False if left is right is False else None
    if isinstance(condition, ComparisonExpr) and len(condition.operators) == 1:
        subject, other = condition.operands
        if condition.operators[0] in ("is", "is not") and isinstance(subject, NameExpr) and _literal(other) is None:
            value = known.get(subject.name, UNKNOWN)
            if value is UNKNOWN:
                return None
            return (value is None) == (condition.operators[0] == "is")
    return None


def _holds(node: Node, site: Context) -> bool:
    """``site`` is among the expressions of ``node``'s statements."""
    return any(
        expr is site for step, *_ in walk([node], definitions=True) for expr in [step, *get_subexpressions(step)]
    )
