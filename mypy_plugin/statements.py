"""Walking a module's statements: every simple statement, with the loop and the function it runs in.

One walk serves the readers of a module's syntax tree (``jit_evidence``: writes, loops;
``value_origins``: bindings, calls). mypy's own traverser cannot be subclassed from interpreted
code where mypy is compiled, and this walk says what a traverser does not: whether a statement
runs once per iteration of a loop, and which targets a compound statement binds. The places of a
call's arguments (``placed``) are shared the same way by the readers of calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ArgKind,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    DictExpr,
    DictionaryComprehension,
    ForStmt,
    FuncDef,
    FuncItem,
    Expression,
    GeneratorExpr,
    IfStmt,
    ListExpr,
    MatchStmt,
    MypyFile,
    NameExpr,
    Node,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    SetExpr,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)

from mypy_plugin.mypy_internals import get_subexpressions

N = TypeVar("N", bound=Node)
T = TypeVar("T")


Step = tuple[Node, bool, FuncDef | None, ForStmt | WithStmt | None]
"""A simple statement, or an expression of a compound statement's header, with whether it runs
once per iteration of a loop in its own function (a function body starts afresh), the function
it runs in (None at module level or in a class body), and, where it is a target a compound
statement binds (``for x in``, ``with ... as x``), that statement. A plain tuple: the methods
of every class mypy analyses are walked, where a named tuple's constructor would cost."""


def walk(
    nodes: Sequence[Node],
    looping: bool = False,
    scope: FuncDef | None = None,
    definitions: bool = False,
    around: bool = False,
) -> Iterator[Step]:
    """Every simple statement below ``nodes``, and every expression of a compound statement; with
    ``definitions``, every function definition (and decorated definition) too, as a step of the
    code that runs it, before the steps of its body. A statement that a ``break`` later in its
    block follows runs once per run of the innermost loop, as the code ``around`` that loop
    does, and one that a ``return`` or ``raise`` follows (itself too) once per run of its function:
    such a loop goes round again only where something before the exit raised and the loop
    caught it (``while True: try: ...; break``, a retry)."""
    for node in nodes:
        if isinstance(node, Block):
            exit = _exit(node.body) if looping else None
            if exit is None:
                yield from walk(node.body, looping, scope, definitions, around)
            else:
                once = around and isinstance(node.body[exit], BreakStmt)
                yield from walk(node.body, once, scope, definitions, around and once)
        elif isinstance(node, FuncDef):
            if definitions:
                yield node, looping, scope, None
            yield from walk([node.body], False, node, definitions)
        elif isinstance(node, Decorator):
            if definitions:
                yield node, looping, scope, None
            yield from walk([*node.decorators, node.func], looping, scope, definitions, around)
        elif isinstance(node, OverloadedFuncDef):
            yield from walk([*node.items, *present([node.impl])], looping, scope, definitions, around)
        elif isinstance(node, ClassDef):
            yield from walk([*node.decorators, node.defs], looping, scope, definitions, around)
        elif isinstance(node, ForStmt):
            yield node.index, True, scope, node
            yield from walk([node.expr, *present([node.else_body])], looping, scope, definitions, around)
            yield from walk([node.body], True, scope, definitions, looping)
        elif isinstance(node, WhileStmt):
            yield from walk([node.expr, node.body], True, scope, definitions, looping)
            yield from walk(present([node.else_body]), looping, scope, definitions, around)
        elif isinstance(node, IfStmt):
            branches = [*node.expr, *node.body, *present([node.else_body])]
            yield from walk(branches, looping, scope, definitions, around)
        elif isinstance(node, WithStmt):
            yield from walk(node.expr, looping, scope, definitions, around)
            yield from ((target, looping, scope, node) for target in present(node.target))
            yield from walk([node.body], looping, scope, definitions, around)
        elif isinstance(node, TryStmt):
            parts = [node.body, *present(node.types), *node.handlers, node.else_body, node.finally_body]
            yield from walk(present(parts), looping, scope, definitions, around)
        elif isinstance(node, MatchStmt):
            arms = [node.subject, *present(node.guards), *node.bodies]
            yield from walk(arms, looping, scope, definitions, around)
        else:
            yield node, looping, scope, None


def _exit(body: Sequence[Statement]) -> int | None:
    """The index of the first statement of ``body`` that leaves the loop it runs in whenever it
    runs: a ``break``, ``return`` or ``raise`` (what follows it in ``body`` never runs)."""
    return next((i for i, stmt in enumerate(body) if isinstance(stmt, (BreakStmt, ReturnStmt, RaiseStmt))), None)


def each_iteration(looping: bool, inside: Sequence[Expression], call: Context) -> bool:
    """Whether ``call``, one of the expressions ``inside`` a statement that runs once per
    iteration of a loop where ``looping`` (``walk``), runs once per iteration of a loop or
    comprehension."""
    return looping or any(_per_item(expr, call) for expr in inside)


def _per_item(expr: Expression, call: Context) -> bool:
    """Whether ``call`` is in the part of comprehension ``expr`` evaluated for every item."""
    if isinstance(expr, GeneratorExpr):
        parts: list[Expression] = [expr.left_expr, *expr.sequences[1:], *(c for cs in expr.condlists for c in cs)]
    elif isinstance(expr, DictionaryComprehension):
        parts = [*present([expr.key]), expr.value, *expr.sequences[1:], *(c for cs in expr.condlists for c in cs)]
    else:
        return False
    return any(inner is call for part in parts for inner in get_subexpressions(part))


def ran_by(nodes: Sequence[Node]) -> set[int]:
    """The ids of every statement below ``nodes`` (function definitions too) and of every
    expression of one: what running ``nodes`` runs or defines."""
    return {id(expr) for step, *_ in walk(nodes, definitions=True) for expr in [step, *get_subexpressions(step)]}


def calls(nodes: Sequence[Node]) -> Iterator[CallExpr]:
    """Every call below ``nodes``, nested ones too."""
    for node, *_ in walk(nodes):
        yield from (expr for expr in get_subexpressions(node) if isinstance(expr, CallExpr))


def placed(kinds: Sequence[ArgKind], names: Sequence[str | None], items: Iterable[T]) -> Iterator[tuple[int | str, T]]:
    """The ``items`` of a call's arguments (written with ``kinds`` and ``names``), each with its
    place: its position among the positional arguments (none after ``*args``, where positions are
    unknown), or its keyword."""
    position: int | None = 0
    for kind, name, item in zip(kinds, names, items):
        if kind == ARG_POS and position is not None:
            yield position, item
            position += 1
        elif kind == ARG_NAMED and name is not None:
            yield name, item
        elif kind != ARG_NAMED:
            position = None


def taken_by(function: FuncDef, call: CallExpr, argument: Expression) -> Var | None:
    """The parameter of ``function`` that takes ``argument`` of ``call`` (a call by its name),
    where its place says which."""
    names = [item.variable.name for item in function.arguments]
    for place, given in placed(call.arg_kinds, call.arg_names, call.args):
        name = names[place] if isinstance(place, int) and place < len(names) else place
        if given is argument and name in names:
            return function.arguments[names.index(str(name))].variable
    return None


def assignment_targets(lvalues: Sequence[Expression]) -> list[Expression]:
    """Assignment targets, inside tuples and lists too, and what a starred one assigns
    (``a, *self.rest = values``)."""
    found: list[Expression] = []
    for lvalue in lvalues:
        if isinstance(lvalue, (TupleExpr, ListExpr)):
            found += assignment_targets(lvalue.items)
        else:
            found.append(lvalue.expr if isinstance(lvalue, StarExpr) else lvalue)
    return found


def unpacked(lvalue: Expression, rvalue: Expression) -> Iterator[tuple[Expression, Expression]]:
    """The targets ``lvalue = rvalue`` binds, each with its value: item by item where a tuple or
    list display is unpacked from one of as many items (``a, b = A(), B()``)."""
    displays = (TupleExpr, ListExpr)
    if isinstance(lvalue, displays) and isinstance(rvalue, displays) and len(lvalue.items) == len(rvalue.items):
        for target, value in zip(lvalue.items, rvalue.items):
            yield from unpacked(target, value)
    else:
        yield lvalue, rvalue


def parameter_at(function: FuncItem, place: int | str) -> str | None:
    """The name of ``function``'s parameter that an argument at ``place`` (``placed``) fills."""
    names = [argument.variable.name for argument in function.arguments]
    if isinstance(place, str):
        return place if place in names else None
    return names[place] if place < len(names) else None


def replaced_functions(nodes: Sequence[Node]) -> set[FuncDef]:
    """The functions below ``nodes`` that never run: a plain definition that a later definition of
    the same name in the same body replaces, with no statement between that reads the name (the
    calls of the name run the later one), and the functions defined inside one. A decorated
    definition may be kept by its decorator (``@dispatch.register``): not judged."""
    found: set[FuncDef] = set()
    for body in _bodies(nodes):
        defined: dict[str, int] = {}  # where each name is defined next (the body read backwards)
        for index in range(len(body) - 1, -1, -1):
            node = body[index]
            later = defined.get(node.name) if isinstance(node, (FuncDef, Decorator, OverloadedFuncDef)) else None
            if isinstance(node, FuncDef) and later is not None and not _reads(body[index + 1 : later], node.name):
                found |= {node} | {
                    inner for inner, *_ in walk([node.body], definitions=True) if isinstance(inner, FuncDef)
                }
            if isinstance(node, (FuncDef, Decorator, OverloadedFuncDef)):
                defined[node.name] = index
    return found


def _reads(nodes: Sequence[Node], name: str) -> bool:
    """A statement among ``nodes`` reads ``name`` as it runs: not in the body of a function it
    defines, which reads the name when called, by then the later definition, unless a statement
    among them calls that function."""
    defined = {
        function.name: function
        for function in (node.func if isinstance(node, Decorator) else node for node in nodes)
        if isinstance(function, FuncDef)
    }
    for step, _, scope, _ in walk(nodes):
        for expr in get_subexpressions(step) if scope is None else []:
            if isinstance(expr, NameExpr) and expr.name == name:
                return True
            called = expr.callee if isinstance(expr, CallExpr) else None
            function = defined.pop(called.name, None) if isinstance(called, NameExpr) else None
            if function is not None and _reads(function.body.body, name):
                return True
    return False


def _bodies(nodes: Sequence[Node]) -> Iterator[Sequence[Node]]:
    """``nodes`` and the bodies of the classes and functions they define, nested ones too."""
    yield nodes
    for node in nodes:
        function = node.func if isinstance(node, Decorator) else node
        if isinstance(function, FuncDef):
            yield from _bodies(function.body.body)
        elif isinstance(node, ClassDef):
            yield from _bodies(node.defs.body)


def present(nodes: Sequence[N | None]) -> list[N]:
    return [node for node in nodes if node is not None]


def looped_items(nodes: Sequence[Node]) -> dict[Var, list[Expression]]:
    """The items of the display each ``for`` statement below ``nodes`` iterates
    (``iterated_items``), by the variable its target binds: a name given in its body stands for
    each of them (``for cls in (State, Carry): register(cls)``)."""
    found: dict[Var, list[Expression]] = {}
    for node, _, _, owner in walk(nodes):
        items = iterated_items(owner) if isinstance(owner, ForStmt) and node is owner.index else None
        if items is not None and isinstance(node, NameExpr) and isinstance(node.node, Var):
            found.setdefault(node.node, []).extend(items)
    return found


def iterated_items(loop: ForStmt) -> list[Expression] | None:
    """The items of the tuple, list or set display ``loop`` iterates, each of which its target
    holds in turn; None where it iterates anything else."""
    return list(loop.expr.items) if isinstance(loop.expr, (TupleExpr, ListExpr, SetExpr)) else None


def is_name(expr: Expression, name: str) -> bool:
    """``expr`` is the name ``name``."""
    return isinstance(expr, NameExpr) and expr.name == name


def display_values(expr: Expression) -> list[Expression] | None:
    """The values a display holds: the items of a tuple, list or set display, the values of a
    dict display or of a ``dict(key=value)`` call; None where ``expr`` is none of those."""
    if isinstance(expr, (TupleExpr, ListExpr, SetExpr)):
        return list(expr.items)
    if isinstance(expr, DictExpr):
        return [value for _, value in expr.items]
    if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr) and expr.callee.name == "dict":
        return [arg for arg, name in zip(expr.args, expr.arg_names) if name is not None]
    return None


def named_items(expr: Expression, looped: Mapping[Var, list[Expression]]) -> list[Expression]:
    """What ``expr`` stands for: the items a loop binds its variable to (``looped_items``), else
    ``expr`` itself."""
    node = expr.node if isinstance(expr, NameExpr) else None
    return looped.get(node, [expr]) if isinstance(node, Var) else [expr]


def blocks(nodes: Sequence[Node]) -> Iterator[Block]:
    """The blocks below ``nodes``, in the function they are in (not nested functions')."""
    for node in nodes:
        if isinstance(node, Block):
            yield node
            yield from blocks(node.body)
        elif isinstance(node, IfStmt):
            yield from blocks([*node.body, *present([node.else_body])])
        elif isinstance(node, (ForStmt, WhileStmt)):
            yield from blocks([node.body, *present([node.else_body])])
        elif isinstance(node, WithStmt):
            yield from blocks([node.body])
        elif isinstance(node, TryStmt):
            yield from blocks(present([node.body, *node.handlers, node.else_body, node.finally_body]))


def code_blocks(scope: FuncDef | None, tree: MypyFile) -> list[Block]:
    """The blocks of the code of ``scope``, or of the module's own top-level code where it is None:
    its body and those of its loops and branches (not of nested functions or classes)."""
    return list(blocks([scope.body if scope is not None else Block(tree.defs)]))


def loops(scope: FuncDef | None, tree: MypyFile) -> list[ForStmt | WhileStmt]:
    """The loop statements of ``scope``'s code (the module's top-level code where it is None),
    nested ones too."""
    return [node for block in code_blocks(scope, tree) for node in block.body if isinstance(node, (ForStmt, WhileStmt))]


def top_level_statements(tree: MypyFile) -> list[Statement]:
    """The statements of a module's own code, those of its loops and branches too (not of its
    functions or classes)."""
    return [stmt for block in code_blocks(None, tree) for stmt in block.body]
