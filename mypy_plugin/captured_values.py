"""What a function made inside another captures, and whether it differs between the runs that make it.

jit keys compiled code on the function object, so a local function (a lambda, a ``partial``, what
a jax transformation makes of one) jitted at every run of the code around it compiles at every
run. That is waste where each run makes the same program. A closure that captures a value jit
cannot trace (a string, a function, a model object: it shapes the program) and is given another
such value at each run is another program each time, and would compile again however it were
written. Arrays and Python numbers shape nothing: passed as arguments, equal shapes would share
one compilation, so capturing them is waste whatever they hold.

The values are followed by name through the assignments of the function they live in (a value
computed from a parameter, or from a loop's variable, differs where that does), and from a
parameter to what the calls of the function pass for it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple

from mypy.nodes import (
    AssignmentExpr,
    AssignmentStmt,
    Block,
    CallExpr,
    ComparisonExpr,
    Context,
    Decorator,
    DictionaryComprehension,
    Expression,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IfStmt,
    IndexExpr,
    LambdaExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RefExpr,
    SetExpr,
    StrExpr,
    SuperExpr,
    TryStmt,
    TupleExpr,
    TypeInfo,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    NoneType,
    TupleType,
    Type,
    TypeAliasType,
    UnionType,
    get_proper_type,
)

from jaxtypes._vocabulary.names import ARRAY_CLASSES, NODE_CONTAINERS, PARTIAL, PYTHON_SCALARS
from mypy_plugin.jit_statics import decorated_statics
from mypy_plugin.markers import is_array_class
from mypy_plugin.method_bodies import definition, takes_self
from mypy_plugin.mypy_internals import get_subexpressions, lookup
from mypy_plugin.static_values import makes_function
from mypy_plugin.statements import placed, present, walk
from mypy_plugin.value_origins import declared_type

MAPPINGS = frozenset({"builtins.dict", "typing.Mapping"})
"""What only a hashable Python value can be a key of."""

TRACED_CLASSES = frozenset({*ARRAY_CLASSES, *NODE_CONTAINERS, *PYTHON_SCALARS, "builtins.bool"})
"""The classes of what jit traces: an attribute none of them has belongs to a Python object."""

STRING_TESTS = frozenset({"==", "!=", "in", "not in"})
"""The comparisons of a value with a string (or strings) that only a Python value passes."""


def shaping_values(
    api: CheckerPluginInterface, fun: Expression | FuncDef, function: FuncDef, traced_too: bool = False
) -> list[Expression]:
    """The values of ``function`` that the callable ``fun`` made in it captures and that may
    shape the program compiled (``_shapes``; ``traced_too``: every value it captures, arrays and
    numbers too, which jit compiles in as constants): the names a lambda's or local function's
    body reads from ``function`` (through a jax transformation or ``partial`` of one), and what a
    ``partial`` binds; a function ``function`` was given or iterates over, held in a variable,
    is itself one (``_given_function``), and a method bound to an object (``op.diagonal_weight``)
    captures the object."""
    uses = EVERY_USE if traced_too else None
    if isinstance(fun, CallExpr) and isinstance(fun.callee, RefExpr) and fun.args:
        if fun.callee.fullname == PARTIAL:
            bound = [arg for arg in fun.args[1:] if not isinstance(arg, NameExpr) or _shapes(arg.node, uses or NO_USES)]
            return [*shaping_values(api, fun.args[0], function, traced_too), *bound]
        return shaping_values(api, fun.args[0], function, traced_too) if makes_function(fun.callee) else []
    if isinstance(fun, MemberExpr) and isinstance(fun.expr, NameExpr):
        return [fun.expr] if _shapes(fun.expr.node, uses or _uses(api, function)) else []
    closure: FuncItem | None = None
    if isinstance(fun, (LambdaExpr, FuncDef)):
        closure = fun
    elif isinstance(fun, NameExpr) and isinstance(fun.node, (FuncDef, Decorator)):
        closure = fun.node.func if isinstance(fun.node, Decorator) else fun.node
    if closure is None:
        return [fun] if isinstance(fun, NameExpr) and _given_function(fun.node, function) else []
    uses = uses or _uses(api, function)
    bound = set(bindings([function.body], function)) | {argument.variable for argument in function.arguments}
    local = [
        node
        for node, _, scope, _ in walk([function.body], scope=function, definitions=True)
        if isinstance(node, FuncDef) and scope is function
    ]
    defaults = [  # lambda limit=limit: ... binds the value where it is made
        expr
        for argument in closure.arguments
        if argument.initializer is not None and _shapes(argument.variable, uses)
        for expr in get_subexpressions(argument.initializer)
        if isinstance(expr, NameExpr) and expr.node in bound
    ]
    return defaults + _captured(closure, {var for var in bound if _shapes(var, uses)}, local)


def _given_function(node: object, function: FuncDef) -> bool:
    """``node`` is a variable of ``function`` that holds a function it was given or iterates over
    (a parameter, a loop's variable: another one where that differs), not one it assigns a function
    it makes (a lambda, a ``partial``), judged where that is made."""
    if not isinstance(node, Var):
        return False
    made = bindings([function.body], function).get(node, [])
    return not any(
        isinstance(value, LambdaExpr)
        or isinstance(value, CallExpr)
        and isinstance(value.callee, RefExpr)
        and (value.callee.fullname == PARTIAL or makes_function(value.callee))
        for value in made
    )


def _captured(
    closure: FuncItem, shaping: set[Var], local: list[FuncDef], seen: frozenset[FuncItem] = frozenset()
) -> list[Expression]:
    """The values among ``shaping`` (of the function ``closure`` is made in) that ``closure``
    reads, and those that the ``local`` functions it reads (calls, passes on) read in turn: they
    are part of its program."""
    own = {argument.variable for argument in closure.arguments}
    names = [
        expr
        for node, *_ in walk([closure.body])
        for expr in get_subexpressions(node)
        if isinstance(expr, NameExpr) and expr.node not in own
    ]
    read = [expr for expr in names if expr.node in shaping]
    called = {definition(expr.node) for expr in names}
    inner = [fun for fun in local if fun in called and fun is not closure and fun not in seen]
    return read + [value for fun in inner for value in _captured(fun, shaping, local, seen | {closure})]


def _shapes(node: object, uses: Uses) -> bool:
    """Whether the variable ``node`` may hold what shapes a program: the function it lives in
    passes it at a static position of a jitted function (``Uses.static``), which compiles a
    program per value, whatever its type; else its type is known and is no array or number
    (``_traceable``), or unknown and the function uses it as only a Python value can be used
    (``Uses.python``): a tracer cannot be called, be a dict's key, or equal a string."""
    if not isinstance(node, Var):
        return False
    if uses.every or node in uses.static:
        return True
    typ = get_proper_type(node.type) if node.type is not None else None
    if typ is None or isinstance(typ, AnyType):
        return node in uses.python
    return not _traceable(typ)


class Uses(NamedTuple):
    """The variables a function uses as only a Python value can be used, and those it passes at
    a static position of a jitted function; ``every``: count every variable, whatever its use."""

    python: set[Var]
    static: set[Var]
    every: bool = False


NO_USES = Uses(set(), set())
EVERY_USE = Uses(set(), set(), every=True)


def _uses(api: CheckerPluginInterface, function: FuncItem) -> Uses:
    """The variables ``function`` (its local functions too) calls, uses as a key of a mapping
    (``declared_type``: a closure is checked before what it is given to), compares with a
    string (``copula == "frank"``, ``mode in ("a", "b")``), or reads an attribute of that nothing
    jit traces has (``op.get_rates``: ``_traced_attributes``); and those it passes at a static
    position of a function the module jits with a decorator (``decorated_statics``)."""
    found: set[Var] = set()
    static: set[Var] = set()
    traced_attributes: set[str] | None = None
    for node, *_ in walk([function.body]):
        for expr in get_subexpressions(node):
            if isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr) and isinstance(expr.callee.node, Var):
                found.add(expr.callee.node)
            elif isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
                static |= _given_statically(api, expr)
            elif isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr) and isinstance(expr.expr.node, Var):
                traced_attributes = _traced_attributes(api) if traced_attributes is None else traced_attributes
                if traced_attributes and expr.name not in traced_attributes:
                    found.add(expr.expr.node)
            elif isinstance(expr, IndexExpr) and isinstance(expr.index, NameExpr) and isinstance(expr.index.node, Var):
                mapping = declared_type(api, expr.base)
                if isinstance(mapping, Instance) and any(base.fullname in MAPPINGS for base in mapping.type.mro):
                    found.add(expr.index.node)
            elif isinstance(expr, ComparisonExpr) and set(expr.operators) <= STRING_TESTS:
                if any(_strings(operand) for operand in expr.operands):
                    found |= {
                        operand.node
                        for operand in expr.operands
                        if isinstance(operand, NameExpr) and isinstance(operand.node, Var)
                    }
    return Uses(found | static, static)


def _given_statically(api: CheckerPluginInterface, call: CallExpr) -> set[Var]:
    """The variables ``call`` passes at the static positions of the decorated jitted function it calls."""
    callee = call.callee.node if isinstance(call.callee, RefExpr) else None
    statics = decorated_statics(api, callee) if isinstance(callee, Decorator) else None
    given = statics.given(call) if statics is not None else []
    return {argument.node for argument in given if isinstance(argument, NameExpr) and isinstance(argument.node, Var)}


def _traced_attributes(api: CheckerPluginInterface) -> set[str]:
    """The attributes of what jit traces: arrays, Python numbers, the containers jax registers
    (``TRACED_CLASSES``), their bases' too; empty where jax's array class is not loaded."""
    classes = [lookup(fullname, api) for fullname in TRACED_CLASSES]
    infos = [symbol.node for symbol in classes if symbol is not None and isinstance(symbol.node, TypeInfo)]
    if not any(is_array_class(info) for info in infos):
        return set()
    return {name for info in infos for base in info.mro for name in base.names}


def _strings(expr: Expression) -> bool:
    """``expr`` is a string literal, or a tuple, list or set display of them."""
    items = expr.items if isinstance(expr, (TupleExpr, ListExpr, SetExpr)) else [expr]
    return bool(items) and all(isinstance(item, StrExpr) for item in items)


def _traceable(typ: Type, seen: frozenset[str] = frozenset()) -> bool:
    """Whether every value of ``typ`` is an array, a Python number, or a container jax registers
    (``NODE_CONTAINERS``) or tuple of those: what jit traces, whatever the value. A recursive
    alias (``Tree = Union[jax.Array, dict[str, "Tree"]]``) is looked through once: met again, its
    other members decide."""
    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in seen:
            return True
        seen = seen | {typ.alias.fullname}
    proper = get_proper_type(typ)
    if isinstance(proper, (UnionType, TupleType)):
        return all(_traceable(item, seen) for item in proper.items)
    if isinstance(proper, LiteralType):
        return _traceable(proper.fallback, seen)
    if isinstance(proper, NoneType):
        return True
    if not isinstance(proper, Instance):
        return False
    if proper.type.fullname in NODE_CONTAINERS:
        return bool(proper.args) and _traceable(proper.args[-1], seen)
    return is_array_class(proper.type) or any(base.fullname in PYTHON_SCALARS for base in proper.type.mro)


def bindings(nodes: Sequence[Node], scope: FuncDef | None) -> dict[Var, list[Expression]]:
    """What the code of ``scope`` (a function, or None: the module's top level) among ``nodes``
    binds to each of its variables: the value assigned (the whole value, where it is unpacked),
    what a loop runs over, a ``with`` statement's value."""
    bound: dict[Var, list[Expression]] = {}
    for node, _, where, binder in walk(nodes, scope=scope):
        if where is not scope:
            continue
        pairs: list[tuple[Expression, Expression]] = []
        if isinstance(node, AssignmentStmt):
            pairs = [(lvalue, node.rvalue) for lvalue in node.lvalues]
        elif isinstance(node, OperatorAssignmentStmt):
            pairs = [(node.lvalue, node.rvalue)]
        elif isinstance(binder, ForStmt) and isinstance(node, Expression):
            pairs = [(node, binder.expr)]
        elif isinstance(binder, WithStmt) and isinstance(node, Expression):
            pairs = [(node, expr) for target, expr in zip(binder.target, binder.expr) if target is node]
        pairs += [(expr.target, expr.value) for expr in get_subexpressions(node) if isinstance(expr, AssignmentExpr)]
        for target, value in pairs:
            for var in _targets(target):
                bound.setdefault(var, []).append(value)
    return bound


def _targets(lvalue: Expression) -> Iterator[Var]:
    if isinstance(lvalue, NameExpr) and isinstance(lvalue.node, Var):
        yield lvalue.node
    elif isinstance(lvalue, (TupleExpr, ListExpr)):
        for item in lvalue.items:
            yield from _targets(item)


def behind(values: Sequence[Expression], scope: FuncDef | None, module: Sequence[Node]) -> set[Var]:
    """The variables whose values ``values`` (read in ``scope``, or at the top level of the
    ``module``'s statements where None) are computed from, through the assignments of that
    scope, themselves included."""
    return set(bound_behind(values, scope, module))


def bound_behind(
    values: Sequence[Expression], scope: FuncDef | None, module: Sequence[Node]
) -> dict[Var, list[Expression]]:
    """The variables ``behind`` finds, each with the values that scope binds to it."""
    bound = bindings(_body(scope, module), scope)
    found: dict[Var, list[Expression]] = {}
    pending = [var for value in values for var in _read(value)]
    while pending:
        var = pending.pop()
        if var not in found:
            found[var] = bound.get(var, [])
            pending.extend(read for value in found[var] for read in _read(value))
    return found


def read_attributes(values: Sequence[Expression], method: FuncDef, found: dict[Var, list[Expression]]) -> set[str]:
    """The attributes of ``method``'s instance (its first parameter) that ``values`` (read in
    ``method``) are computed from, through the variables ``found`` behind them (``bound_behind``:
    ``predictor = make(self.field)``): where a loop changes one before each call of the method,
    each call makes something else."""
    this = method.arguments[0].variable if method.arguments else None
    made = [value for assigned in found.values() for value in assigned]
    return {
        expr.name
        for value in [*values, *made]
        for expr in get_subexpressions(value)
        if isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr) and expr.expr.node is this
    }


def _body(scope: FuncDef | None, module: Sequence[Node]) -> Sequence[Node]:
    return [scope.body] if scope is not None else module


def _read(expr: Expression) -> Iterator[Var]:
    return (e.node for e in get_subexpressions(expr) if isinstance(e, NameExpr) and isinstance(e.node, Var))


def per_iteration(
    scope: FuncDef | None, module: Sequence[Node], inside: Sequence[Expression], site: Context
) -> set[Var]:
    """The variables bound anew at every iteration of a loop around ``site`` (one of the
    expressions ``inside`` a statement of ``scope``, or of the ``module``'s top level): a loop's
    variables and what the loop's body assigns, a comprehension's variables."""
    found: set[Var] = set()
    for loop in _loops_around(scope, module, site):
        if isinstance(loop, ForStmt):
            found.update(_targets(loop.index))
        for node, _, where, binder in walk([loop.body], True, scope):
            if where is not scope:
                continue
            if isinstance(node, AssignmentStmt):
                found.update(var for lvalue in node.lvalues for var in _targets(lvalue))
            elif binder is not None and isinstance(node, Expression):
                found.update(_targets(node))
    for expr in inside:
        if isinstance(expr, (GeneratorExpr, DictionaryComprehension)) and any(
            e is site for e in get_subexpressions(expr)
        ):
            found.update(var for index in expr.indices for var in _targets(index))
    return found


def changed_per_iteration(scope: FuncDef | None, module: Sequence[Node], site: Context, receiver: Var) -> set[str]:
    """The attributes of ``receiver`` that the body of a loop around ``site`` (in ``scope``, or
    at the ``module``'s top level) assigns (``self._params = jax.device_put(params, device)``)."""
    return {
        lvalue.name
        for loop in _loops_around(scope, module, site)
        for node, _, where, _ in walk([loop.body], True, scope)
        if where is scope and isinstance(node, AssignmentStmt)
        for lvalue in node.lvalues
        if isinstance(lvalue, MemberExpr) and isinstance(lvalue.expr, NameExpr) and lvalue.expr.node is receiver
    }


def _loops_around(scope: FuncDef | None, module: Sequence[Node], site: Context) -> Iterator[ForStmt | WhileStmt]:
    """The loops of ``scope`` (or of the ``module``'s top level) whose lines hold ``site``."""
    return (loop for loop in _loops(_body(scope, module)) if loop.line <= site.line <= (loop.end_line or loop.line))


def _loops(nodes: Sequence[Node]) -> Iterator[ForStmt | WhileStmt]:
    """The loops among ``nodes`` and the blocks of their compound statements, not in the functions
    and classes defined there."""
    for node in nodes:
        if isinstance(node, (ForStmt, WhileStmt)):
            yield node
        if isinstance(node, Block):
            yield from _loops(node.body)
        elif isinstance(node, (ForStmt, WhileStmt)):
            yield from _loops(present([node.body, node.else_body]))
        elif isinstance(node, IfStmt):
            yield from _loops(present([*node.body, node.else_body]))
        elif isinstance(node, WithStmt):
            yield from _loops([node.body])
        elif isinstance(node, TryStmt):
            yield from _loops(present([node.body, *node.handlers, node.else_body, node.finally_body]))
        elif isinstance(node, MatchStmt):
            yield from _loops(node.bodies)


def given_for(call: CallExpr, function: FuncDef, parameters: Collection[Var]) -> list[Expression] | None:
    """What ``call``, which runs ``function``, passes for ``parameters``; None where that cannot be
    read: a ``*args`` or ``**kwargs``, a call that hands ``function`` to another."""
    callee = call.callee
    method = takes_self(function)
    if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):  # construction fills self
        skip = 1 if function.name == "__init__" else None
    elif isinstance(callee, (MemberExpr, SuperExpr)) and method:
        skip = 1
    elif (
        isinstance(callee, CallExpr)
        or isinstance(callee, RefExpr)
        and (isinstance(callee.node, Var) or callee.node is function or definition(callee.node) is function)
    ):
        skip = 0
    else:
        skip = None
    if skip is None or any(kind.is_star() for kind in call.arg_kinds):
        return None
    names = [argument.variable for argument in function.arguments]
    given: list[Expression] = []
    for place, arg in placed(call.arg_kinds, call.arg_names, call.args):
        if isinstance(place, str):
            formal = next((var for var in names if var.name == place), None)
        else:
            formal = names[place + skip] if place + skip < len(names) else None
        if formal in parameters:
            given.append(arg)
    return given
