"""Counters and flags a jitted method sets: only literals feed them, so they never hold a tracer.

A method jit traces runs its statements only while tracing: ``self.n_updates += 1`` there counts
traces, not calls. Where every value the class gives the attribute is made of literals and of the
attribute itself (``self.n = 0``, ``self.n += 1``, ``self.done = True``), jax computes none of it:
the write leaves an int or a flag behind, never a tracer, and it is wrong only where something
reads it (``read_at``), which then sees how often jit traced, not how often the method ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mypy.nodes import (
    AssignmentStmt,
    BytesExpr,
    ComparisonExpr,
    ComplexExpr,
    Expression,
    FloatExpr,
    FuncDef,
    IntExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OpExpr,
    OperatorAssignmentStmt,
    StrExpr,
    TypeInfo,
    UnaryExpr,
)

from mypy_plugin.mypy_internals import defining_class, get_subexpressions
from mypy_plugin.statements import assignment_targets, is_name, walk

_LITERALS = (IntExpr, FloatExpr, ComplexExpr, StrExpr, BytesExpr, OpExpr, UnaryExpr, ComparisonExpr)
_CONSTANTS = ("builtins.True", "builtins.False", "builtins.None")


def fed_by_literals(info: TypeInfo, attribute: str, tree: MypyFile) -> bool:
    """Every value the classes of ``info``'s MRO give ``attribute`` (in a method, through its
    first parameter, or as a class attribute's default) is made of literals and the attribute
    itself; all of those classes that mention it are in ``tree``, the module checked (another
    module's assignments are not at hand)."""
    found = False
    for base in info.mro[:-1]:
        if base.module_name != tree.fullname:
            if attribute in base.names:
                return False
            continue
        for target, value in _assignments(base, attribute):
            if value is None or not _literal(value, target):
                return False
            found = True
    return found


def read_at(info: TypeInfo, attribute: str, tree: MypyFile, instance: Callable[[Expression], bool]) -> int | None:
    """The line of the first read of ``attribute`` of an instance of ``info`` in ``tree``: through
    the first parameter of a method of a class it is or derives from, or through an expression that
    may hold an ``instance``; not the assignments that feed it (``self.n += 1``)."""
    feeding: set[int] = set()
    for base in [info, *(node.node for node in tree.names.values() if isinstance(node.node, TypeInfo))]:
        if base.module_name == tree.fullname and (base in info.mro or info in base.mro):
            feeding.update(
                id(expr) for target, value in _assignments(base, attribute) for expr in _feeds(target, value)
            )
    for node, _, scope, _ in walk(tree.defs):
        for expr in get_subexpressions(node):
            if not isinstance(expr, MemberExpr) or expr.name != attribute or id(expr) in feeding:
                continue
            if instance(expr.expr) or _through_self(expr.expr, scope, info):
                return expr.line
    return None


def _assignments(info: TypeInfo, attribute: str) -> Iterator[tuple[Expression, Expression | None]]:
    """What the body of ``info`` assigns to ``attribute``: (target, value), the value None where a
    statement unpacks into it; an augmented assignment's value is its right-hand side."""
    for node, _, scope, _ in walk([info.defn.defs]):
        targets = _targets(node)
        for target in targets:
            if not isinstance(target, (NameExpr, MemberExpr)) or target.name != attribute:
                continue
            owned = scope is None and isinstance(target, NameExpr) and node in info.defn.defs.body
            through = isinstance(target, MemberExpr) and scope is not None and _first_parameter(scope, target.expr)
            if owned or through:
                whole = len(targets) == 1 and isinstance(node, (AssignmentStmt, OperatorAssignmentStmt))
                yield target, node.rvalue if whole else None


def _targets(node: Node) -> list[Expression]:
    """What ``node`` assigns to (``statements.assignment_targets``)."""
    lvalues = list(node.lvalues) if isinstance(node, AssignmentStmt) else []
    lvalues += [node.lvalue] if isinstance(node, OperatorAssignmentStmt) else []
    return assignment_targets(lvalues)


def _first_parameter(function: FuncDef, expr: Expression) -> bool:
    return bool(function.arguments) and is_name(expr, function.arguments[0].variable.name)


def _literal(value: Expression, target: Expression) -> bool:
    """``value`` is made of literals and of ``target`` itself (``self.n + 1``)."""
    fed = {id(expr) for expr in _feeds(target, value)}
    return all(
        isinstance(expr, _LITERALS)
        or (isinstance(expr, NameExpr) and expr.fullname in _CONSTANTS)
        or id(expr) in fed
        or is_name(expr, _base(target))
        for expr in get_subexpressions(value)
    )


def _base(target: Expression) -> str:
    """The name ``target`` (``self.n``) is an attribute of; none for a plain name."""
    return target.expr.name if isinstance(target, MemberExpr) and isinstance(target.expr, NameExpr) else ""


def _feeds(target: Expression, value: Expression | None) -> Iterator[Expression]:
    """``target``, and where ``value`` reads ``target`` again (``self.n = self.n + 1``)."""
    yield target
    for expr in get_subexpressions(value) if value is not None else ():
        if isinstance(target, MemberExpr) and isinstance(expr, MemberExpr) and expr.name == target.name:
            if is_name(expr.expr, _base(target)):
                yield expr
        elif isinstance(target, NameExpr) and isinstance(expr, NameExpr) and expr.name == target.name:
            yield expr


def _through_self(expr: Expression, scope: FuncDef | None, info: TypeInfo) -> bool:
    """``expr`` is the first parameter of ``scope``, a method of a class ``info`` is or derives
    from."""
    owner = defining_class(scope) if scope is not None else None
    return owner is not None and (owner in info.mro or info in owner.mro) and _first_parameter(scope, expr)
