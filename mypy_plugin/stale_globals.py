"""The plugin's twin of the sanitizer's ``jit-stale-global``: a call of a jitted function that runs
code traced with an earlier value of a global the function reads.

Tracing reads the module's globals once and compiles their values in; jit's cache does not look
at them again. At module level, where statements run in the order written, a call is stale
where the module rebinds such a global after an earlier call of the same function traced it
(``g = 10.`` between two calls: the first call after it is reported), or inside a loop that
rebinds it and calls the function (``for y in range(3): f(y)``: from the second iteration on).
An attribute of a class or module the function reads (``Reference.images``), reassigned by
module-level code, is such a global too. Calls inside functions are left to the sanitizer: when
they run is not in the code's order. A name the jitted function assigns itself (``global n``,
``Counter.n += 1``) is its side effect, not a value compiled in.
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
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RefExpr,
    TupleExpr,
    TypeInfo,
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
    for name, kind in _globals_read(tree, function):
        for line in _module_bindings(tree.defs, name):
            in_loop = any(loop.line <= line <= (loop.end_line or loop.line) for loop in loops)
            traced = [c for c in earlier if c < line]
            first_after = not any(line < c < call.line for c in earlier)
            if in_loop or (traced and line < call.line and first_after):
                what = phrases.rebound_after_tracing(line, None if in_loop else traced[-1])
                return phrases.traced_global(function.name, kind, name), Problem(JIT_STALE_GLOBAL, what)
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


def _globals_read(tree: MypyFile, function: FuncDef) -> list[tuple[str, str]]:
    """The module's variables, and the attributes of classes and modules, that ``function`` (and
    what it defines inside) reads but does not assign itself, each with its kind as the
    sanitizer names it (``global``, ``class attribute``)."""
    own = {name for node, *_ in walk([function.body]) if isinstance(node, GlobalDecl) for name in node.names}
    own |= {name for node, *_ in walk([function.body]) for name in _bound_names(node, None)}
    read: dict[str, str] = {}
    for node, *_ in walk([function.body]):
        for expr in get_subexpressions(node):
            if isinstance(expr, NameExpr) and expr.kind == GDEF and isinstance(expr.node, Var):
                if expr.fullname == f"{tree.fullname}.{expr.name}":
                    read.setdefault(expr.name, "global")
            elif isinstance(expr, MemberExpr) and (kind := _attribute_kind(expr)) is not None:
                read.setdefault(_attribute_label(expr), kind)
    return [(name, kind) for name, kind in read.items() if name not in own]


def _attribute_kind(expr: MemberExpr) -> str | None:
    """``Name.attribute`` where ``Name`` is a class or module and the attribute a variable of it
    (not a method): "class attribute" or "module attribute"."""
    holder = expr.expr.node if isinstance(expr.expr, NameExpr) and expr.expr.kind == GDEF else None
    if isinstance(holder, TypeInfo):
        symbol = holder.get(expr.name)
        return "class attribute" if symbol is not None and isinstance(symbol.node, Var) else None
    return "module attribute" if isinstance(holder, MypyFile) and isinstance(expr.node, Var) else None


def _attribute_label(expr: MemberExpr) -> str:
    assert isinstance(expr.expr, NameExpr)
    return f"{expr.expr.name}.{expr.name}"


def _module_bindings(nodes: list, name: str) -> Iterator[int]:
    """The lines where module-level code binds ``name``: assignments and ``for`` targets."""
    for node, _, scope, statement in walk(nodes):
        if scope is None and name in _bound_names(node, statement):
            yield node.line


def _bound_names(node: Node, statement: Node | None) -> list[str]:
    """The module's globals, and the attributes of its classes and modules (``Name.attribute``),
    ``node`` binds (not a class body's attributes)."""
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
        elif isinstance(target, MemberExpr) and _attribute_kind(target) is not None:
            names.append(_attribute_label(target))
    return names


def _module_loops(nodes: list) -> Iterator[ForStmt]:
    """The ``for`` loops of module-level code."""
    for node, _, scope, statement in walk(nodes):
        if scope is None and isinstance(statement, ForStmt) and node is statement.index:
            yield statement
