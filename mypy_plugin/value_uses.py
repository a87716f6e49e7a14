"""Where a value goes from the expression that makes it: stored for later, or handed to a call.

A function made afresh on every iteration is no waste where each one is kept: ``jax.jit(fun)``
made once per constraint and stored in a list is compiled once per constraint and then called
from there again and again. Nor is a value built per iteration where it goes straight into a call
that keys no compiled code on it. Both are read from the module's own syntax tree, as
``value_origins`` reads where a value comes from: the expression itself, and a name it is bound
to (``fun_jit = jax.jit(fun)``), followed to the places that name is used.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    Context,
    Decorator,
    DictExpr,
    DictionaryComprehension,
    Expression,
    FuncDef,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    RefExpr,
    SetComprehension,
    TupleExpr,
    TypeInfo,
    Var,
    YieldExpr,
)

from mypy.types import AnyType, get_proper_type

from jaxtypes._vocabulary.names import JAX_EXPORT
from mypy_plugin.jitted_functions import called_function
from mypy_plugin.mypy_internals import get_subexpressions
from mypy_plugin.statements import calls, each_iteration, loops, ran_by, walk

STORING_METHODS = frozenset({"append", "extend", "insert", "add", "setdefault", "update", "appendleft"})
"""Methods of the builtin containers (and ``deque``) that keep what they are given."""

AHEAD_OF_TIME_STAGES = frozenset({"trace", "lower", "compile"})
"""The methods of a jitted function, and of what they return, that carry it on to the compiled
function (``jax.jit(f).trace(x).lower().compile()``): keeping that keeps the jitted function."""


def kept(tree: MypyFile, made: Context, depth: int = 3) -> bool:
    """The value ``made`` makes (an expression, or a decorated local ``def``, bound to its name)
    is stored for later where the module shows it: assigned to an attribute (not one of ``self``,
    a class or a module, which the next run fills again) or an item, given to
    a container's ``append``/``add``/..., made as the items of a list, set or dict comprehension
    (``{agent: jax.jit(...) for agent in agents}``), or yielded, directly or through the local
    name it is bound to; an item of a tuple, list or dict display that is kept in turn; given to
    a class's constructor or to a callable mypy cannot see (a library without type information),
    where what that call makes is kept in turn (``depth`` calls deep)."""
    uses = list(_uses(tree, made))
    return any(_stores(tree, parent, depth) for parent in _parents(tree) for use in uses if _holds(parent, use))


def used_at_once(tree: MypyFile, made: Expression) -> bool:
    """The jitted function ``made`` is used only where it is made: called there (``jax.jit(f)(x)``)
    or handed to ``jax.export.export``, which traces it once into a serialised module. Nothing
    keeps it, so no later call can meet what it compiled."""
    if any(isinstance(parent, CallExpr) and called_function(parent) is made for parent in _parents(tree)):
        return True
    call = handed_to(tree, made)
    return call is not None and isinstance(call.callee, RefExpr) and call.callee.fullname == JAX_EXPORT


def called_only_where_made(tree: MypyFile, made: Context, function: FuncDef) -> bool:
    """The jitted function ``made`` (a jit call, or a decorated local ``def``) is only called, by
    the run of ``function`` that makes it, and not once per iteration of a loop there: each use is
    the callee of such a call (``jax.jit(f)(x)``, or ``solve(x)`` after ``solve = jax.jit(f)``)
    or its binding to a local name. Nothing keeps, returns or passes it on, so the next run of
    ``function`` jits a new one that compiles again."""
    uses = {id(use) for use in _uses(tree, made)}
    called = False
    for node, looping, scope, _ in walk(tree.defs):
        inside = [node, *get_subexpressions(node)] if isinstance(node, Expression) else get_subexpressions(node)
        for expr in inside:
            if isinstance(expr, CallExpr) and id(called_function(expr)) in uses:
                if scope is not function or each_iteration(looping, inside, expr):
                    return False
                uses.discard(id(called_function(expr)))
                called = True
    targets = {
        id(lvalue)
        for node, *_ in walk(tree.defs)
        if isinstance(node, AssignmentStmt) and node.rvalue is made
        for lvalue in node.lvalues
        if isinstance(lvalue, NameExpr)
    }
    named = bool(targets) or isinstance(made, Decorator)
    return called and uses - targets <= ({id(made)} if named else set())


def reused_where_made(tree: MypyFile, made: Context, function: FuncDef) -> int | None:
    """The line of a loop of ``function`` that calls the jitted function ``made`` again and again,
    in the run of ``function`` that makes it, without making it anew (``step`` jitted, then called
    per batch): each compile serves every call of that loop. None where there is none."""
    uses = {id(use) for use in _uses(tree, made)}
    called = [call for call in calls([function.body]) if id(called_function(call)) in uses]
    for loop in loops(function, tree):
        ran = ran_by([loop.body])
        if id(made) not in ran and any(id(call) in ran for call in called):
            return loop.line
    return None


def never_compiled(tree: MypyFile, made: Context) -> bool:
    """The jitted function ``made`` is only traced or lowered, to read what that gives
    (``jax.jit(f).lower(x).cost_analysis()``, flax's summary of flops): no use of it, or of what
    its ahead-of-time stages make, calls it, compiles it or passes it on, so it compiles nothing."""
    return all(_only_read(tree, use) for use in _uses(tree, made) if not isinstance(use, Decorator))


def _only_read(tree: MypyFile, use: Context) -> bool:
    """``use`` is read where it is written, never called, compiled, passed on, returned or kept:
    an attribute of it other than ``compile`` is read, or a variable is bound to it (whose reads
    are ``_uses``'s too; not a name a ``def`` binds, ``f = jax.jit(f)``), or it is that name being
    bound."""
    for parent in _parents(tree):
        if isinstance(parent, MemberExpr) and parent.expr is use:
            return parent.name != "compile"
        if isinstance(parent, AssignmentStmt) and any(lvalue is use for lvalue in parent.lvalues):
            return True
        if isinstance(parent, AssignmentStmt) and parent.rvalue is use:  # a variable, whose reads are followed
            return all(isinstance(lvalue, NameExpr) for lvalue in parent.lvalues) and _bound_name(tree, use) is not None
    return False


def handed_to(tree: MypyFile, made: Expression) -> CallExpr | None:
    """The call ``made`` is written as an argument of, if it is one."""
    return next((call for call in calls(tree.defs) if any(argument is made for argument in call.args)), None)


def only_passed(tree: MypyFile, made: Expression | Var) -> list[tuple[CallExpr, Expression]] | None:
    """Each call the value ``made`` is an argument of, with that argument, where it goes nowhere
    else: each use (the expression itself, written as an argument, or a read of the name of a
    function it is bound to, or of the parameter ``made`` is) is an argument, has an attribute read
    (not a method called: one may jit ``self``) or is the name bound again. None where one is
    kept, returned, called or used otherwise, or bound to a name of the module, which another
    module may import."""
    uses = list(_reads(tree, made)) if isinstance(made, Var) else list(_uses(tree, made))
    parents = list(_parents(tree))
    module_calls = [parent for parent in parents if isinstance(parent, CallExpr)]
    arguments = {id(argument): (call, argument) for call in module_calls for argument in call.args}
    called = {id(call.callee) for call in module_calls}
    read = {id(parent.expr) for parent in parents if isinstance(parent, MemberExpr) and id(parent) not in called}
    bound = {id(lvalue) for parent in parents if isinstance(parent, AssignmentStmt) for lvalue in parent.lvalues}
    found = []
    for use in uses:
        if id(use) in arguments:
            found.append(arguments[id(use)])
        elif id(use) not in read | bound and not (use is made and _bound_locally(tree, use)):
            return None
    return found


def _bound_locally(tree: MypyFile, made: Context) -> bool:
    """``made`` is bound to one name in a function (``node = Node(...)``)."""
    return any(
        isinstance(node, AssignmentStmt)
        and node.rvalue is made
        and scope is not None
        and [type(lvalue) for lvalue in node.lvalues] == [NameExpr]
        for node, _, scope, _ in walk(tree.defs)
    )


def passed_to(tree: MypyFile, made: Context) -> Iterator[tuple[CallExpr, Expression]]:
    """Each call the value ``made`` makes is an argument of, directly or by the name it is bound
    to, with that argument."""
    uses = {id(use) for use in _uses(tree, made)}
    for call in calls(tree.defs):
        yield from ((call, argument) for argument in call.args if id(argument) in uses)


def used_in(tree: MypyFile, made: Context) -> set[FuncDef | None]:
    """The functions (None: the module's top level) where the value ``made`` makes is used:
    where it is made, and where the name it is bound to is read."""
    uses = {id(use) for use in _uses(tree, made)}
    return {
        scope for node, _, scope, _ in walk(tree.defs) for expr in (node, *get_subexpressions(node)) if id(expr) in uses
    }


def _uses(tree: MypyFile, made: Context) -> Iterator[Context]:
    """``made`` itself, what its ahead-of-time stages make of it (``.lower(...).compile()``), and
    every reference to the local name it is bound to."""
    yield made
    for parent in _parents(tree):
        callee = parent.callee if isinstance(parent, CallExpr) else None
        if isinstance(callee, MemberExpr) and callee.expr is made and callee.name in AHEAD_OF_TIME_STAGES:
            yield from _uses(tree, parent)
    target = _bound_name(tree, made)
    if target is not None:
        yield from _reads(tree, target)


def _reads(tree: MypyFile, target: Var | Decorator) -> Iterator[NameExpr]:
    """Every read of the variable (or decorated ``def``) ``target``."""
    for parent in _parents(tree):
        if isinstance(parent, NameExpr) and parent.node is target:
            yield parent


def _bound_name(tree: MypyFile, made: Context) -> Var | Decorator | None:
    """The variable ``name = made`` binds, or the decorated ``def`` itself."""
    if isinstance(made, Decorator):
        return made
    for node, *_ in walk(tree.defs):
        if isinstance(node, AssignmentStmt) and node.rvalue is made:
            names = [lvalue for lvalue in node.lvalues if isinstance(lvalue, NameExpr)]
            return names[0].node if names and isinstance(names[0].node, Var) else None
    return None


def _parents(tree: MypyFile) -> Iterator[Node]:
    """Every statement and expression of the module, statements first."""
    for node, *_ in walk(tree.defs):
        yield node
        yield from get_subexpressions(node)


def _holds(parent: Node, use: Context) -> bool:
    """``use`` is a direct part of ``parent`` where it would be stored: an assignment's value,
    a call's argument, a yield's value, the item of a list, set or dict comprehension."""
    if isinstance(parent, AssignmentStmt):
        return parent.rvalue is use
    if isinstance(parent, (ListComprehension, SetComprehension)):
        return parent.generator.left_expr is use
    if isinstance(parent, DictionaryComprehension):
        return parent.value is use
    if isinstance(parent, CallExpr):
        return any(argument is use for argument in parent.args)
    if isinstance(parent, (TupleExpr, ListExpr)):
        return any(item is use for item in parent.items)
    if isinstance(parent, DictExpr):
        return any(value is use for _, value in parent.items)
    return isinstance(parent, YieldExpr) and parent.expr is use


def _stores(tree: MypyFile, parent: Node, depth: int) -> bool:
    """``parent``, which holds the value (``_holds``), keeps it."""
    if isinstance(parent, AssignmentStmt):
        return any(isinstance(lvalue, (MemberExpr, IndexExpr)) and not _replaced(lvalue) for lvalue in parent.lvalues)
    if isinstance(parent, CallExpr):
        callee = parent.callee
        if isinstance(callee, MemberExpr) and callee.name in STORING_METHODS:
            return True
        node = callee.node if isinstance(callee, RefExpr) else None
        unseen = isinstance(node, Var) and (node.type is None or isinstance(get_proper_type(node.type), AnyType))
        holder = isinstance(node, TypeInfo) or unseen  # an instance holds it; what mypy cannot see may
        return holder and depth > 0 and kept(tree, parent, depth - 1)
    if isinstance(parent, (TupleExpr, ListExpr, DictExpr)):  # kept where the display is
        return depth > 0 and kept(tree, parent, depth - 1)
    return isinstance(parent, (YieldExpr, ListComprehension, SetComprehension, DictionaryComprehension))


def _replaced(lvalue: Expression) -> bool:
    """An attribute of ``self``, of a class or of a module: one place, which the next run of the
    same code fills again, replacing what it held, or, on an instance made for that run, fills
    for a new object: either way each run's jitted function is a new one that compiles again."""
    if not isinstance(lvalue, MemberExpr):
        return False
    owner = lvalue.expr
    return (
        isinstance(owner, NameExpr)
        and owner.name == "self"
        or (isinstance(owner, RefExpr) and isinstance(owner.node, (TypeInfo, MypyFile)))
    )
