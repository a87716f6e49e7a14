"""The plugin's twin of the sanitizer's ``jit-stale-global``: a call of a jitted function that runs
code traced with an earlier value of a global the function reads.

Tracing reads the module's globals once and compiles their values in; jit's cache does not look
at them again. At module level, where statements run in the order written, a call is stale
where the module rebinds such a global after an earlier call of the same function traced it
(``g = 10.`` between two calls: the first call after it is reported), or inside a loop that
rebinds it and calls the function (``for y in range(3): f(y)``: from the second iteration on).
Calls inside functions are left to the sanitizer: when they run is not in the code's order. A
name the jitted function assigns itself (``global n``) is its side effect, not a value compiled
in.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    GDEF,
    AssignmentStmt,
    CallExpr,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    GlobalDecl,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RefExpr,
    TupleExpr,
    Var,
)

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import JIT_STALE_GLOBAL
from mypy_plugin.jitted_functions import is_jit
from mypy_plugin.mypy_internals import get_subexpressions
from mypy_plugin.statements import walk


def stale_global_problem(tree: MypyFile, function: FuncDef, call: CallExpr) -> tuple[str, Problem] | None:
    """The global of the module that ``call``, a module-level call of the jitted ``function``,
    runs with the value an earlier trace compiled in, as the subject and the problem; None where
    the module's order shows none."""
    earlier = [line for line in _calls_of(tree, function) if line < call.line]
    loops = [loop for loop in _module_loops(tree.defs) if loop.line <= call.line <= (loop.end_line or loop.line)]
    for name in _globals_read(tree, function):
        for line in _module_bindings(tree.defs, name):
            in_loop = any(loop.line <= line <= (loop.end_line or loop.line) for loop in loops)
            traced = [c for c in earlier if c < line]
            first_after = not any(line < c < call.line for c in earlier)
            if in_loop or (traced and line < call.line and first_after):
                what = phrases.rebound_after_tracing(line, None if in_loop else traced[-1])
                return phrases.traced_global(function.name, "global", name), Problem(JIT_STALE_GLOBAL, what)
    return None


def jitted_function(tree: MypyFile, callee: Expression) -> FuncDef | None:
    """The ``def`` a call of a jitted function runs: a decorated one by its name, or the one given
    to a jit called right there (``jit(f)(x)``)."""
    if isinstance(callee, CallExpr) and is_jit(tree, callee.callee) and callee.args:
        callee = callee.args[0]
    node = callee.node if isinstance(callee, RefExpr) else None
    node = node.func if isinstance(node, Decorator) else node
    return node if isinstance(node, FuncDef) else None


def _calls_of(tree: MypyFile, function: FuncDef) -> Iterator[int]:
    """The lines of the module-level calls that run ``function``."""
    for node, _, scope, _ in walk(tree.defs):
        if scope is None:
            for expr in get_subexpressions(node):
                if isinstance(expr, CallExpr) and jitted_function(tree, expr.callee) is function:
                    yield expr.line


def _globals_read(tree: MypyFile, function: FuncDef) -> list[str]:
    """The module's variables ``function`` (and what it defines inside) reads but does not
    declare ``global``."""
    own = {name for node, *_ in walk([function.body]) if isinstance(node, GlobalDecl) for name in node.names}
    read = []
    for node, *_ in walk([function.body]):
        for expr in get_subexpressions(node):
            is_global = isinstance(expr, NameExpr) and expr.kind == GDEF and isinstance(expr.node, Var)
            if is_global and expr.fullname == f"{tree.fullname}.{expr.name}" and expr.name not in own:
                read += [expr.name] if expr.name not in read else []
    return read


def _module_bindings(nodes: list, name: str) -> Iterator[int]:
    """The lines where module-level code binds ``name``: assignments and ``for`` targets."""
    for node, _, scope, statement in walk(nodes):
        if scope is None and name in _bound_names(node, statement):
            yield node.line


def _bound_names(node: Node, statement: Node | None) -> list[str]:
    """The module's globals ``node`` binds (not a class body's attributes)."""
    if isinstance(node, AssignmentStmt):
        targets: list[Expression] = list(node.lvalues)
    elif isinstance(node, OperatorAssignmentStmt):
        targets = [node.lvalue]
    else:
        targets = [node] if isinstance(statement, ForStmt) and node is statement.index else []
    names = []
    while targets:
        target = targets.pop()
        if isinstance(target, TupleExpr):
            targets += target.items
        elif isinstance(target, NameExpr) and target.kind == GDEF:
            names.append(target.name)
    return names


def _module_loops(nodes: list) -> Iterator[ForStmt]:
    """The ``for`` loops of module-level code."""
    for node, _, scope, statement in walk(nodes):
        if scope is None and isinstance(statement, ForStmt) and node is statement.index:
            yield statement
