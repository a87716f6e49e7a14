"""Where a value comes from, read from the module that makes it: what a declared type does not show.

A static value's type can hide what it holds: a parameter without annotation takes whatever its
callers pass, a variable mypy typed by its first assignment may be bound to an array by a later
one, a field typed ``Any`` holds what the constructor is given. The module being checked (or
analysed) shows where such a value is made, and that is judged instead:

- a name is followed to the assignment that binds it where it is used (the last one written
  before the use in its own scope; from a nested function, the last one in the scope that owns
  it), a parameter without annotation to its default and to the arguments its callers in the
  module pass; ``a if c else b`` and ``a or b`` to both sides;
- what is made there is judged by what it is for certain: a list, dict or set display or
  comprehension; a call of a function whose declared return type is an array or unhashable
  (``jnp.array(...)``); a call of a class that hashes its fields, by what it is given for
  the fields typed ``Any``.

Only what makes a hash fail or pins an array is judged (``UNHASHABLE_IN_A_HASH``): such a value
fails or goes wrong wherever it is hashed, with no further evidence needed; a collection of a jax
array's items holds arrays. Apart from that, ``fresh_origin`` finds what is made afresh and
hashed by identity (a lambda, a local function, what a jax transformation returns, or a tuple,
named tuple or value class given one, also as what a function of the module returns), which
needs evidence that it is made again and again (``jit_evidence.repeated``) or that an equal copy
meets jit where it does (``equal_copies``: made by the same call with the same names and
literals). A call of a function whose body the module does not show is judged by its declared
return type: a named tuple or value class of functions, given arguments, is a bundle of new
closures (``_made_bundle``). An annotated name is judged by its annotation elsewhere; any other
value made by code this module cannot see is left alone. Everything read is the module's own
syntax tree, which every mode of mypy has whole when it checks the module, and the declared types
of what it calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, TypeGuard

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    LDEF,
    AssignmentExpr,
    AssignmentStmt,
    BytesExpr,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ComplexExpr,
    ConditionalExpr,
    Decorator,
    DictExpr,
    DictionaryComprehension,
    Expression,
    FloatExpr,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    IntExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OpExpr,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    SetComprehension,
    SetExpr,
    StarExpr,
    StrExpr,
    SuperExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    ProperType,
    TupleType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
    has_type_vars,
)

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import ARRAY_CONVERSIONS, JAX_ARRAY_CLASSES, PYTHON_SCALARS
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.dataclass_options import declared_eq_false, hashes_its_fields, uncompared
from mypy_plugin.declared_types import UNHASHABLE_IN_A_HASH, admitted_unhashable, rebuilt, static_problem
from mypy_plugin.jitted_types import private_name
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name, is_array_type, written
from mypy_plugin.metadata import ANY_ATTRIBUTE, ChangeEvidence
from mypy_plugin.method_bodies import (
    CONSTRUCTION,
    assigned_values,
    construction_method,
    local_values,
    replaced_values,
)
from mypy_plugin.mypy_internals import (
    MypyDataclass,
    checked_module,
    checked_type,
    defining_class,
    get_subexpressions,
    literal_hash,
    named_tuple_base,
    named_tuple_fields,
)
from mypy_plugin.static_values import fresh_callable, is_function_type, made_at
from mypy_plugin.statements import is_name, iterated_items, walk

MAX_STEPS = 4
"""How many names and parameters a value is followed through."""

DISPLAYS: dict[type[Expression], str] = {
    ListExpr: "list",
    ListComprehension: "list",
    DictExpr: "dict",
    DictionaryComprehension: "dict",
    SetExpr: "set",
    SetComprehension: "set",
}
"""Expressions that make an unhashable builtin, by the builtin they make."""

CONVERSIONS = frozenset({"builtins.tuple", "builtins.list", "builtins.set", "builtins.frozenset"})
"""Builtins that make a collection of what iterating their argument yields."""

LITERALS = (IntExpr, StrExpr, BytesExpr, FloatExpr, ComplexExpr)
CONSTANTS = frozenset({"builtins.None", "builtins.True", "builtins.False"})
ARITHMETIC = frozenset({"+", "-", "*", "/", "//", "%", "**", "@"})
"""Operators that make a jax array of an array operand."""


class Binding(NamedTuple):
    """A statement that binds a variable: its line, the function it runs in (None at module
    level), and the values it may bind where the statement shows them (the value assigned; the
    items of a display a loop runs over), else None."""

    line: int
    scope: FuncDef | None
    values: tuple[Expression, ...] | None


class Verdict(NamedTuple):
    """What the values an expression may hold break in a hash (the first problem found), and
    whether every one of them was seen and judged."""

    problem: Problem | None
    known: bool


UNKNOWN = Verdict(None, False)
FINE = Verdict(None, True)


class Call(NamedTuple):
    """A call in the module and the function it runs in."""

    expr: CallExpr
    scope: FuncDef | None


class Made(NamedTuple):
    """An expression that makes a value, and the function it runs in (None at module level)."""

    expr: Expression
    scope: FuncDef | None


class Site(NamedTuple):
    """Where a call passes a value: its position among the positional arguments, or its keyword."""

    call: CallExpr
    place: int | str


def spans(function: FuncDef, line: int) -> bool:
    """``line`` is in the body of ``function`` (mypy evaluates an expression of a function again
    while it checks a function nested in it, where that reads a variable whose type is not known
    yet, with the nested one as its scope: the line tells them apart)."""
    return function.line < line and function.end_line is not None and line <= function.end_line


class Fresh(NamedTuple):
    """A value made afresh, hashed by identity, described (``phrases.fresh_callable``), and the
    expression (or local function definition) each run of which makes it anew (where a loop
    around it is looked for)."""

    described: str
    made: Expression | FuncDef


class ModuleFlow:
    """The bindings of each variable, the functions of parameters, the calls and the values each
    function returns, of one module."""

    def __init__(self, tree: MypyFile, private_callers: bool = False) -> None:
        self.module = tree.fullname
        self.private_callers = private_callers
        """Whether a module-private function's declared parameter is what the module's calls pass
        for it, and nothing else (``_passed``)."""
        self.bindings: dict[Var, list[Binding]] = {}
        self.calls: list[Call] = []
        self.owners: dict[Var, FuncDef] = {}
        self.functions: dict[FuncDef, list[Expression]] = {}
        """Each function of the module, with the values its ``return`` statements give."""
        self.listed: dict[int, Var] = {}
        """Each list display the module binds to a variable (``found = []``), by its id."""
        self.appended: dict[Var, list[Expression]] = {}
        """Each variable's values the module appends to it (``found.append(fn)``)."""
        self.unpacked: set[int] = set()
        """The ids of the items of unpacked values the flow made (``_unpacked``): not the module's
        own expressions, so never handed on as a value it makes."""
        for node, _, scope, bound_by in walk(tree.defs):
            if bound_by is not None and isinstance(node, Expression):
                over = (
                    iterated_items(bound_by) if isinstance(bound_by, ForStmt) and isinstance(node, NameExpr) else None
                )
                self._bind(node, None, node.line, scope, over)
            elif isinstance(node, AssignmentStmt):
                for lvalue in node.lvalues:
                    self._bind(lvalue, node.rvalue, node.line, scope)
                    if (
                        isinstance(node.rvalue, ListExpr)
                        and isinstance(lvalue, NameExpr)
                        and isinstance(lvalue.node, Var)
                    ):
                        self.listed[id(node.rvalue)] = lvalue.node
            elif isinstance(node, OperatorAssignmentStmt):
                self._bind(node.lvalue, None, node.line, scope)
            elif isinstance(node, ReturnStmt) and node.expr is not None and scope is not None:
                self.functions.setdefault(scope, []).append(node.expr)
            for expr in get_subexpressions(node):
                if isinstance(expr, CallExpr):
                    self.calls.append(Call(expr, scope))
                    self._append(expr)
                elif isinstance(expr, AssignmentExpr):
                    self._bind(expr.target, expr.value, expr.line, scope)
            if scope is not None and scope.arguments and scope.arguments[0].variable not in self.owners:
                self.owners.update((argument.variable, scope) for argument in scope.arguments)
            if scope is not None:
                self.functions.setdefault(scope, [])

    def _append(self, call: CallExpr) -> None:
        """Note the value ``call`` appends to a variable's list (``found.append(fn)``, ``insert``)."""
        callee = call.callee
        if isinstance(callee, MemberExpr) and callee.name in ("append", "insert") and call.args:
            if isinstance(callee.expr, NameExpr) and isinstance(callee.expr.node, Var):
                self.appended.setdefault(callee.expr.node, []).append(call.args[-1])

    def items(self, display: TupleExpr | ListExpr) -> list[Expression]:
        """What a tuple or list display holds: its items, and for a list the module binds to a
        variable, what it appends to that variable."""
        var = self.listed.get(id(display))
        return [*display.items, *(self.appended.get(var, []) if var is not None else [])]

    def scope_of(self, expr: Expression) -> FuncDef | None:
        """The innermost function of the module whose body holds ``expr``."""
        around = [function for function in self.functions if spans(function, expr.line)]
        return max(around, key=lambda function: function.line, default=None)

    def enclosing(self, function: FuncDef) -> list[FuncDef]:
        """The functions of the module around ``function``'s definition, outermost first."""
        around = [outer for outer in self.functions if spans(outer, function.line)]
        return sorted(around, key=lambda outer: outer.line)

    def _unpacked(self, value: Expression, index: int) -> IndexExpr:
        """``value[index]``, made here for what unpacking ``value`` binds its ``index``-th target
        to (``params, state = init(...)``), noted in ``unpacked``."""
        item = IndexExpr(value, IntExpr(index))
        item.set_line(value)
        self.unpacked.add(id(item))
        return item

    def _bind(
        self,
        lvalue: Expression,
        value: Expression | None,
        line: int,
        scope: FuncDef | None,
        items: list[Expression] | None = None,
    ) -> None:
        """Record what ``lvalue = value`` binds (or, for a loop's target, one of ``items``); an
        unpacked tuple display binds item by item."""
        if isinstance(lvalue, RefExpr) and isinstance(lvalue.node, Var):
            values = (value,) if value is not None else tuple(items) if items is not None else None
            self.bindings.setdefault(lvalue.node, []).append(Binding(line, scope, values))
        elif isinstance(lvalue, (TupleExpr, ListExpr)):
            if isinstance(value, (TupleExpr, ListExpr)):
                parts: list[Expression] = list(value.items)
            elif value is not None and not any(isinstance(item, StarExpr) for item in lvalue.items):
                parts = [self._unpacked(value, index) for index in range(len(lvalue.items))]
            else:
                parts = []
            paired = len(parts) == len(lvalue.items)
            for index, item in enumerate(lvalue.items):
                self._bind(item, parts[index] if paired else None, line, scope)


def origin_verdict(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
    expr: Expression,
    judge: Judge,
    line: int,
    scope: FuncDef | None,
    private_callers: bool = False,
) -> Verdict:
    """What the values ``expr`` may hold, where the module makes them, break in a hash
    (``UNHASHABLE_IN_A_HASH``, saying where the value is made), and whether all were judged.
    ``line`` and ``scope`` (the function around ``expr``, None at module level) place the use;
    with ``private_callers``, a parameter of a module-private function is what the module's calls
    pass, whatever it is declared (``ModuleFlow.private_callers``)."""
    tree = checked_module(api)
    if tree is None:
        return UNKNOWN
    flow = ModuleFlow(tree, private_callers)
    return _combined(
        made_verdict(made.expr, judge, flow, made.scope) if made is not None else UNKNOWN
        for made in _origins(flow, expr, line, scope, MAX_STEPS, set())
    )


def reaching_values(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression, line: int, scope: FuncDef | None
) -> list[Expression | None] | None:
    """The expressions the module makes the values of ``expr`` (used at ``line`` in ``scope``)
    with, by the bindings that reach it (``polarization = jnp.array(...)`` after mypy typed the
    parameter ``str``), None for each value it does not show (what other code may pass); ``expr``
    itself where it is no name, conditional or ``or``; None where no module is at hand."""
    tree = checked_module(api)
    if tree is None:
        return None
    return [
        made.expr if made is not None else None
        for made in _origins(ModuleFlow(tree), expr, line, scope, MAX_STEPS, set())
    ]


def origins(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression, line: int, scope: FuncDef | None
) -> list[Expression]:
    """The expressions the module makes the values of ``expr`` with, as far as it shows them
    (``reaching_values``; ``expr`` itself where no module is at hand)."""
    reached = reaching_values(api, expr, line, scope)
    return [expr] if reached is None else [value for value in reached if value is not None]


def built_values(api: CheckerPluginInterface, expr: Expression, line: int, scope: FuncDef | None) -> list[Expression]:
    """``origins``, where a call of a function of the module that returns a value on every path
    (``b = setup(x)``) stands for what its returns make (``return Bisection(lower=0.0)``): a value
    made there is made by each call of it."""
    built = _built(api, expr, line, scope)
    return [expr] if built is None else [value for value in built if value is not None]


def built_class(api: CheckerPluginInterface, expr: Expression, line: int, scope: FuncDef | None) -> TypeInfo | None:
    """The one class whose constructor makes every value of ``expr`` the module shows, through
    the functions of the module that return them too (``built_values``): what a value typed
    ``Any`` (what an unannotated function returns) is; None where one is not shown or another."""
    classes = _called_classes(_built(api, expr, line, scope))
    return next(iter(classes)) if classes is not None and len(classes) == 1 else None


def _built(
    api: CheckerPluginInterface, expr: Expression, line: int, scope: FuncDef | None
) -> list[Expression | None] | None:
    tree = checked_module(api)
    if tree is None:
        return None
    flow = ModuleFlow(tree)
    return [
        found.expr if found is not None else None
        for made in _origins(flow, expr, line, scope, MAX_STEPS, set())
        for found in _made_or_returned(flow, made, MAX_STEPS)
    ]


def made_classes(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression, line: int, scope: FuncDef | None
) -> set[TypeInfo] | None:
    """The classes whose constructors make every value ``expr`` (used at ``line`` in ``scope``)
    may hold, where the module shows each as a call of a class; else None."""
    return _called_classes(reaching_values(api, expr, line, scope))


def _called_classes(values: Sequence[Expression | None] | None) -> set[TypeInfo] | None:
    """The classes ``values`` call, where each is a call of a class; else None."""
    classes = set()
    for value in values or [None]:
        callee = value.callee if isinstance(value, CallExpr) else None
        if not isinstance(callee, RefExpr) or not isinstance(callee.node, TypeInfo):
            return None
        classes.add(callee.node)
    return classes or None


def equal_copies(api: CheckerPluginInterface, made: Expression, site: Site) -> list[Expression]:
    """The other expressions that make a value equal to the one ``made`` makes (``same_making``:
    the same callee given the same names and literals) and that the module passes at the same
    place of a call of what ``site``'s call calls."""
    tree = checked_module(api)
    if tree is None or not isinstance(made, CallExpr):
        return []
    flow = ModuleFlow(tree)
    position, keyword = (site.place, None) if isinstance(site.place, int) else (None, site.place)
    found: list[Expression] = []
    for call in flow.calls:
        given = _given_at(call.expr, position, keyword) if same_making(call.expr.callee, site.call.callee) else None
        for value in _origins(flow, given, call.expr.line, call.scope, MAX_STEPS, set()) if given is not None else ():
            if value is not None and value.expr is not made and same_making(value.expr, made):
                found.append(value.expr)
    return found


def same_making(first: Expression, second: Expression) -> bool:
    """Whether two expressions make equal values for certain: calls of the same callee given the
    same arguments, the same name or attribute, equal literals."""
    if isinstance(first, CallExpr) and isinstance(second, CallExpr):
        return (
            same_making(first.callee, second.callee)
            and (first.arg_kinds, first.arg_names) == (second.arg_kinds, second.arg_names)
            and all(same_making(one, other) for one, other in zip(first.args, second.args))
        )
    key = literal_hash(first)
    return key is not None and key == literal_hash(second)


def _given_at(call: CallExpr, position: int | None, keyword: str | None) -> Expression | None:
    """What ``call`` passes at ``position`` (before any ``*args``) or as ``keyword``."""
    for index, (kind, name, given) in enumerate(zip(call.arg_kinds, call.arg_names, call.args)):
        if kind.is_star():
            return None
        if (kind == ARG_POS and index == position) or (kind == ARG_NAMED and name == keyword):
            return given
    return None


def fresh_origin(
    api: CheckerPluginInterface, expr: Expression, judge: Judge, line: int, scope: FuncDef | None
) -> Fresh | None:
    """A callable made afresh each time some code runs, hashed by identity, that the values of
    ``expr`` (used at ``line`` in ``scope``) may be or hold, where the module makes them: a lambda,
    a local function, what a jax transformation returns (``jax.jit``, ``jax.grad``), or a tuple,
    named tuple or value class given one, made there or returned by a call of a function of the
    module."""
    tree = checked_module(api)
    if tree is None:
        return None
    flow = ModuleFlow(tree)
    for made in _origins(flow, expr, line, scope, MAX_STEPS, set()):
        described = _fresh(flow, made, judge, MAX_STEPS) if made is not None else None
        if made is not None and described is not None:
            return Fresh(described, made_at(made.expr))
    return None


def _fresh(flow: ModuleFlow, made: Made, judge: Judge, steps: int) -> str | None:
    """What ``made`` makes afresh every time it runs, described (``fresh_origin``)."""
    expr = made.expr
    if isinstance(expr, NameExpr) and expr.kind == LDEF and isinstance(expr.node, (FuncDef, Decorator)):
        function = expr.node.func if isinstance(expr.node, Decorator) else expr.node
        return fresh_callable(expr, flow.module, flow.enclosing(function))
    described = fresh_callable(expr, flow.module, [])
    if described is not None or steps <= 0:
        return described
    if isinstance(expr, (TupleExpr, ListExpr)):
        parts: list[tuple[str | None, Expression]] = [(None, item) for item in flow.items(expr)]
        container = "tuple" if isinstance(expr, TupleExpr) else "list"
    elif _converts(expr):  # tuple(found): holds what found holds
        return _given_fresh(flow, expr.args[0], made, judge, steps)
    elif isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
        callee = expr.callee.node
        if isinstance(callee, FuncDef) and callee in flow.functions:
            for returned in _returned(flow, callee, steps):
                inner = _fresh(flow, returned, judge, steps - 1) if returned is not None else None
                if inner is not None:
                    return phrases.returned_by(inner, callee.name)
            return None
        if not isinstance(callee, TypeInfo):
            return _made_bundle(expr, judge)
        if not _hashes_what_it_holds(callee, judge):
            return None
        left_out = uncompared(callee)
        parts = [(part, given) for part, given in given_fields(expr, callee) if part not in left_out]
        container = class_name(callee)
    else:
        return None
    for part, given in parts:
        inner = _given_fresh(flow, given, made, judge, steps)
        if inner is not None:
            return phrases.holding_fresh(container, part, inner)
    info = expr.callee.node if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) else None
    stored = _stored_fresh(flow, info, judge, steps - 1) if isinstance(info, TypeInfo) else None
    return phrases.holding_fresh(container, stored.field, stored.described) if stored is not None else None


def _given_fresh(flow: ModuleFlow, given: Expression, made: Made, judge: Judge, steps: int) -> str | None:
    """What the value ``given`` where ``made`` runs makes afresh, described (``_fresh``)."""
    for origin in _origins(flow, given, made.expr.line, made.scope, steps - 1, set()):
        inner = _fresh(flow, origin, judge, steps - 1) if origin is not None else None
        if inner is not None:
            return inner
    return None


def _converts(expr: Expression) -> TypeGuard[CallExpr]:
    """``expr`` is ``tuple(x)``, ``list(x)`` or ``frozenset(x)`` of one iterable: it holds its items."""
    return (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, RefExpr)
        and expr.callee.fullname in ("builtins.tuple", "builtins.list", "builtins.frozenset")
        and expr.arg_kinds == [ARG_POS]
    )


class Assigned(NamedTuple):
    """A callable the construction of a class makes afresh and assigns: the attribute, the value
    as written there, and what it is (``phrases.fresh_callable``)."""

    field: str
    value: Expression
    described: str


class Stored(NamedTuple):
    """A callable made afresh (``fresh``: what, and the expression each run of which makes it
    anew, where the evidence is looked for) that a class's construction stores ``at``: the line
    that makes it, the code to change."""

    fresh: Fresh
    at: Expression


def made_in_construction(
    api: CheckerPluginInterface,
    expr: Expression,
    judge: Judge,
    line: int,
    scope: FuncDef | None,
    fields: Callable[[TypeInfo, str], bool] | None = None,
) -> list[Stored]:
    """Each callable made afresh that the values of ``expr`` (used at ``line`` in ``scope``) may
    be or hold and that the construction of a class of the module makes and stores: in an
    attribute of ``self`` (``self.fn = wrap(loss)`` in ``__init__``: made by each construction),
    or in an instance of a class that hashes what it holds (``_stored_fresh``: made by the call of
    the class), in one of the ``fields`` where given (a traced pytree's metadata). Every instance
    built holds a new one."""
    tree = checked_module(api)
    if tree is None:
        return []
    flow = ModuleFlow(tree)
    found: list[Stored] = []
    for made in _origins(flow, expr, line, scope, MAX_STEPS, set()):
        if made is None:
            continue
        if made.scope is not None and made.scope.name in CONSTRUCTION and fields is None:
            described = _fresh(flow, made, judge, MAX_STEPS)
            found += [Stored(Fresh(described, made_at(made.expr)), made.expr)] if described is not None else []
            continue
        callee = made.expr.callee if isinstance(made.expr, CallExpr) else None
        info = callee.node if isinstance(callee, RefExpr) else None
        assigned = _stored_fresh(flow, info, judge, MAX_STEPS - 1, fields) if isinstance(info, TypeInfo) else None
        if isinstance(info, TypeInfo) and assigned is not None:
            described = phrases.holding_fresh(class_name(info), assigned.field, assigned.described)
            found.append(Stored(Fresh(described, made_at(made.expr)), assigned.value))
    return found


def _stored_fresh(
    flow: ModuleFlow, info: TypeInfo, judge: Judge, steps: int, fields: Callable[[TypeInfo, str], bool] | None = None
) -> Assigned | None:
    """What the construction of ``info``, a class of the module that hashes what it holds, makes
    afresh and stores in an attribute (``self._norm = functools.partial(...)`` in ``__init__``, or
    a subclass's ``__init__`` handing a lambda to the base's that stores it): every instance holds
    a new one, so two built alike hash apart. Read only in the module of the class and its bases,
    whose syntax tree every mode of mypy has whole."""
    if info.module_name != flow.module or steps <= 0 or not _hashes_what_it_holds(info, judge):
        return None
    held = {name for base in info.mro for name, symbol in base.names.items() if _is_field(symbol.node)}
    held -= uncompared(info)
    for base in info.mro:
        if base.module_name != flow.module:
            continue
        for field in sorted(held if fields is None else {name for name in held if fields(info, name)}):
            for value in assigned_values(base.defn, field):
                scope = flow.scope_of(value)
                for made in _origins(flow, value, value.line, scope, steps - 1, set()):
                    if made is None or made.scope is not scope and not _constructs(made.scope, info):
                        continue
                    described = _fresh(flow, made, judge, steps - 1)
                    if described is not None:
                        return Assigned(field, made.expr, described)
    return None


def _is_field(node: Node | None) -> bool:
    return isinstance(node, Var) and not node.is_classvar


def _constructs(scope: FuncDef | None, info: TypeInfo) -> bool:
    """``scope`` is a construction method of ``info`` or of a base: it runs when ``info`` is built
    (a subclass's ``__init__`` handing a value to ``super().__init__``)."""
    return scope is not None and scope.name in CONSTRUCTION and scope.info in info.mro


def _made_bundle(call: CallExpr, judge: Judge) -> str | None:
    """A bundle of functions that a call makes (``function_bundle``), described: such a factory's
    functions close over its arguments, so each call makes new ones."""
    bundle = function_bundle(call, judge)
    return (
        phrases.holding_fresh(class_name(bundle[0]), bundle[1], phrases.made_by(written(call.callee)))
        if bundle
        else None
    )


def function_bundle(call: CallExpr, judge: Judge) -> tuple[TypeInfo, str] | None:
    """The class of the bundle of functions that ``call`` makes, and its first field, where the
    module does not show the body that makes it (a function of another module, a decorated one):
    the function is declared to return a named tuple or value class whose every field is a
    function (an ``Optimizer`` of ``jax.example_libraries``), and the call gives it arguments."""
    returned = _declared_return(call.callee.node) if call.args and isinstance(call.callee, RefExpr) else None
    if isinstance(returned, TupleType):
        returned = returned.partial_fallback
    info = returned.type if isinstance(returned, Instance) else None
    if info is None or not _hashes_what_it_holds(info, judge):
        return None
    fields = named_tuple_fields(info) or list(getattr(MypyDataclass.read(info), "fields", ()))
    symbols = [info.get(name) for name in fields]
    declared = [symbol.node.type if symbol is not None and isinstance(symbol.node, Var) else None for symbol in symbols]
    if not fields or not all(map(is_function_type, declared)):
        return None
    return info, fields[0]


def _hashes_what_it_holds(info: TypeInfo, judge: Judge) -> bool:
    """Instances hash what they are given: a named tuple, a frozen (and ``eq``) or ``unsafe_hash``
    dataclass, a library's value class."""
    dataclass = MypyDataclass.read(info)
    frozen = dataclass is not None and dataclass.frozen and not declared_eq_false(info)
    return named_tuple_base(info) is not None or frozen or hashes_its_fields(info) or judge.hashes_fields(info)


def never_none(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression, line: int, scope: FuncDef | None
) -> bool:
    """Whether no value ``expr`` (used at ``line`` in ``scope``) may hold is None, by how the
    module makes each (``_makes_a_value``), where it shows them all: ``alpha=base["alpha"]``
    after ``base = fit(...)``, a function of the module whose every return is a dict display
    giving ``"alpha"`` a ``float(...)``."""
    tree = checked_module(api)
    return tree is not None and _never_none(ModuleFlow(tree), expr, line, scope, MAX_STEPS)


def _never_none(flow: ModuleFlow, expr: Expression, line: int, scope: FuncDef | None, steps: int) -> bool:
    made = list(_origins(flow, expr, line, scope, steps, set())) if steps > 0 else [None]
    return all(value is not None and _makes_a_value(flow, value, steps - 1) for value in made)


def _makes_a_value(flow: ModuleFlow, made: Made, steps: int) -> bool:
    """``made`` cannot give None: a literal, a display, arithmetic or a comparison, a call of a
    class, a call of a function of the module that returns such a value on every path, or the item
    a constant key gives of a dict display that holds such a value there."""
    expr = made.expr
    if isinstance(expr, (*LITERALS, *DISPLAYS, TupleExpr, ComparisonExpr, GeneratorExpr)):
        return True
    if isinstance(expr, NameExpr):
        return expr.fullname in ("builtins.True", "builtins.False")
    if isinstance(expr, OpExpr):
        return expr.op in ARITHMETIC
    if isinstance(expr, IndexExpr) and isinstance(expr.index, StrExpr):
        return _item_never_none(flow, expr, expr.index.value, made.scope, steps)
    if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
        return False
    if isinstance(expr.callee.node, TypeInfo):
        return True
    called = _call_returns(flow, expr) if steps > 0 else None
    return called is not None and all(_never_none(flow, value, value.line, called[0], steps) for value in called[1])


def _item_never_none(flow: ModuleFlow, expr: IndexExpr, key: str, scope: FuncDef | None, steps: int) -> bool:
    """``expr`` (``base[key]``) is never None: each value of ``base`` is a dict display, as written
    or as what a function of the module returns on every path, whose item under ``key`` is not."""
    bases = list(_origins(flow, expr.base, expr.line, scope, steps, set())) if steps > 0 else [None]
    for base in bases:
        if base is None:
            return False
        for display in _made_or_returned(flow, base, steps):
            value = _dict_item(display.expr, key) if display is not None else None
            if value is None or not _never_none(flow, value, value.line, display.scope, steps - 1):
                return False
    return True


def _made_or_returned(flow: ModuleFlow, made: Made | None, steps: int) -> list[Made | None]:
    """What ``made`` makes: itself, or for a call of a function of the module that returns a value
    on every path (``_call_returns``), what its returns make."""
    called = _call_returns(flow, made.expr) if made is not None else None
    if called is None:
        return [made]
    return [found for value in called[1] for found in _origins(flow, value, value.line, called[0], steps - 1, set())]


def _dict_item(expr: Expression, key: str) -> Expression | None:
    """The value a dict display gives ``key``, where it is written there."""
    items = expr.items if isinstance(expr, DictExpr) else []
    return next((value for name, value in items if isinstance(name, StrExpr) and name.value == key), None)


def _call_returns(flow: ModuleFlow, expr: Expression) -> tuple[FuncDef, list[Expression]] | None:
    """The function of the module the call ``expr`` runs and what it returns, where it returns a
    value on every path: every ``return`` gives one and its body ends in a ``return`` or ``raise``;
    else None."""
    function = expr.callee.node if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) else None
    if not isinstance(function, FuncDef) or function not in flow.functions:
        return None
    body = function.body.body
    bare = any(
        isinstance(node, ReturnStmt) and node.expr is None and scope is function
        for node, _, scope, _ in walk([function.body], scope=function)
    )
    if bare or not body or not isinstance(body[-1], (ReturnStmt, RaiseStmt)):
        return None
    return function, flow.functions[function]


def _returned(flow: ModuleFlow, function: FuncDef, steps: int) -> Iterator[Made | None]:
    """What a function of the module returns, where its body makes it."""
    for value in flow.functions[function]:
        yield from _origins(flow, value, value.line, function, steps - 1, set())


def _combined(verdicts: Iterable[Verdict]) -> Verdict:
    """The first problem of several values, known where there is one and every one is known."""
    problem, known, seen = None, True, False
    for verdict in verdicts:
        problem = problem or verdict.problem
        known, seen = known and verdict.known, True
    return Verdict(problem, known and seen)


def made_verdict(
    made: Expression, judge: Judge, flow: ModuleFlow | None = None, scope: FuncDef | None = None
) -> Verdict:
    """What the value an expression makes is for certain, and where it is made: a display or
    comprehension of an unhashable builtin, a literal or a tuple of them, a call of a function or class whose
    declared return type is judged as a static value's (an instance of a class that hashes its
    fields by what it is given for fields typed ``Any``). Where ``flow`` is known (``made`` runs
    in ``scope``), what is given is followed further, and so is what a function of the module
    without a declared return type returns. Only a problem that breaks a hash is said; a value
    whose type has another problem is not known."""
    builtin = DISPLAYS.get(type(made))
    if builtin is not None:
        return Verdict(phrases.made_display(builtin, made.line), True)
    if isinstance(made, LITERALS) or isinstance(made, NameExpr) and made.fullname in CONSTANTS:
        return FINE
    if isinstance(made, TupleExpr):
        return _combined(made_verdict(item, judge, flow, scope) for item in made.items)
    if isinstance(made, OpExpr) and made.op in ARITHMETIC:
        local = local_values(scope) if scope is not None else {}
        computed = _computes_array(made, judge, local)
        return Verdict(phrases.made_at(phrases.array_type("jax.Array"), made.line), True) if computed else UNKNOWN
    if not isinstance(made, CallExpr) or not isinstance(made.callee, RefExpr):
        return UNKNOWN
    callee = _bound(made.callee, judge.api)
    if isinstance(callee, TypeInfo) and callee.fullname in CONVERSIONS and _yields_arrays(_converted(made), [], judge):
        return Verdict(phrases.made_of_array_items(callee.name, made.line), True)
    if isinstance(callee, TypeInfo):
        given = _given_to_fields(made, callee, judge, flow, scope)
        if given is not None:
            return Verdict(given, True)
        returned: Type | None = Instance(callee, [AnyType(TypeOfAny.special_form)] * len(callee.defn.type_vars))
    else:
        returned = _declared_return(callee)
    if returned is None and flow is not None and isinstance(callee, FuncDef) and callee in flow.functions:
        return _combined(
            made_verdict(value.expr, judge, flow, value.scope) if value is not None else UNKNOWN
            for value in _returned(flow, callee, MAX_STEPS)
        )
    if returned is None:
        return UNKNOWN
    problem = static_problem(returned, judge._replace(lenient=True))
    if problem is None:
        return FINE
    return Verdict(phrases.made_at(problem, made.line), True) if problem.rule in UNHASHABLE_IN_A_HASH else UNKNOWN


def _converted(expr: Expression) -> Expression | None:
    """What ``tuple(x)``, ``list(x)``, ``set(x)`` or ``frozenset(x)`` converts: ``x``."""
    if not isinstance(expr, CallExpr) or len(expr.args) != 1 or expr.arg_kinds != [ARG_POS]:
        return None
    callee = expr.callee
    return expr.args[0] if isinstance(callee, RefExpr) and callee.fullname in CONVERSIONS else None


def _yields_arrays(expr: Expression | None, around: list[GeneratorExpr], judge: Judge) -> bool:
    """Iterating ``expr`` (inside the comprehensions ``around``) yields jax arrays or values
    holding them: ``expr`` is a jax array (its items are arrays), a conversion of such a value
    (``tuple(a)``), or a comprehension whose element is or holds one."""
    if isinstance(expr, (ListComprehension, SetComprehension)):
        expr = expr.generator
    if isinstance(expr, GeneratorExpr):
        return _holds_array(expr.left_expr, [*around, expr], judge)
    converted = _converted(expr) if expr is not None else None
    if converted is not None:
        return _yields_arrays(converted, around, judge)
    return expr is not None and _is_array(expr, around, judge)


def _holds_array(expr: Expression, around: list[GeneratorExpr], judge: Judge) -> bool:
    """``expr``, an element of the comprehensions ``around``, is or holds a jax array."""
    if isinstance(expr, TupleExpr):
        return any(_holds_array(item, around, judge) for item in expr.items)
    converted = _converted(expr)
    if converted is not None:
        return _yields_arrays(converted, around, judge)
    return _is_array(expr, around, judge)


def _computes_array(expr: Expression, judge: Judge, local: dict[str, list[Expression]], steps: int = MAX_STEPS) -> bool:
    """``expr`` is arithmetic on a jax array (``0.5 * (sig_x + sig_y)``, with ``sig_x = jnp.sqrt(...)``):
    jax's operators make an array of it. Names are followed to what the function assigns them
    (``local``, by name), ``steps`` deep."""
    if isinstance(expr, OpExpr) and expr.op in ARITHMETIC:
        return any(_computes_array(side, judge, local, steps) for side in (expr.left, expr.right))
    if isinstance(expr, UnaryExpr):
        return _computes_array(expr.expr, judge, local, steps)
    unbound = isinstance(expr, NameExpr) and (not isinstance(expr.node, Var) or expr.node.type is None)
    if unbound and steps > 0 and isinstance(expr, NameExpr):
        return any(_computes_array(value, judge, local, steps - 1) for value in local.get(expr.name, []))
    return _is_array(expr, [], judge)


def compares_as_number(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression) -> bool:
    """``expr`` makes a 0-d jax array of a Python number (``jnp.array(n)``, ``jnp.asarray(0)``),
    or computes one from such arrays and numbers (``jnp.asarray(n) - 1``, ``.astype(...)``): its ``==`` gives one
    truth value, as the number's does. The runtime twin judges a value
    (``jaxtypes._classes.static_values.compares_as_number``)."""
    if isinstance(expr, OpExpr) and expr.op in ARITHMETIC:
        sides = (expr.left, expr.right)
        arrays = [compares_as_number(api, side) for side in sides]
        return any(arrays) and all(array or _python_number(api, side) for array, side in zip(arrays, sides))
    if isinstance(expr, UnaryExpr):
        return compares_as_number(api, expr.expr)
    callee = expr.callee if isinstance(expr, CallExpr) else None
    if isinstance(callee, MemberExpr) and callee.name == "astype":  # keeps the shape
        return compares_as_number(api, callee.expr)
    return (
        isinstance(expr, CallExpr)
        and isinstance(callee, RefExpr)
        and callee.fullname in ARRAY_CONVERSIONS
        and expr.arg_kinds[:1] == [ARG_POS]
        and _python_number(api, expr.args[0])
    )


def _python_number(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, expr: Expression) -> bool:
    """The checker typed ``expr`` as a Python number (``bool`` too); before types, a literal one."""
    if isinstance(api, SemanticAnalyzerPluginInterface):
        literal = expr.expr if isinstance(expr, UnaryExpr) else expr
        return isinstance(literal, (IntExpr, FloatExpr, ComplexExpr))
    typ = checked_type(api, expr)
    if isinstance(typ, LiteralType):
        typ = typ.fallback
    return isinstance(typ, Instance) and any(base.fullname in PYTHON_SCALARS for base in typ.type.mro)


def _is_array(expr: Expression, around: list[GeneratorExpr], judge: Judge) -> bool:
    """``expr`` is a jax array: typed as one (a name, a call's declared return), or a loop
    variable of one of the comprehensions ``around`` over what yields arrays."""
    if isinstance(expr, NameExpr):
        for generator in around:
            for index, sequence in zip(generator.indices, generator.sequences):
                if isinstance(index, NameExpr) and index.node is expr.node:
                    return _yields_arrays(sequence, around, judge)
    if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        typ = expr.node.type
    elif isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
        typ = _declared_return(_bound(expr.callee, judge.api))
    else:
        return False
    proper = get_proper_type(typ) if typ is not None else None
    return isinstance(proper, Instance) and any(base.fullname in JAX_ARRAY_CLASSES for base in proper.type.mro)


def assigned_problem(defn: ClassDef, attribute: str, default: Expression | None, judge: Judge) -> Problem | None:
    """What a static field's default, or a value its class's construction assigns it
    (``self.len = jnp.sqrt(...)`` in ``__post_init__``), breaks in a hash, whatever its declared
    type says. Construction is read only where the class is in the module at hand: a class from
    mypy's cache keeps no method bodies, and the verdict must not depend on the cache."""
    values = [
        *([default] if default is not None else []),
        *(assigned_values(defn, attribute) if _own(defn, judge) else []),
    ]
    return _made_in_construction(defn, values, judge).problem


def constructed_verdict(defn: ClassDef, attribute: str, judge: Judge) -> Verdict:
    """What the values a class's construction puts in ``attribute`` in place of what it was given
    (``method_bodies.replaced_values``) break in a hash: known only where each value is, and where
    the class is in the module at hand (``assigned_problem``)."""
    return _made_in_construction(defn, replaced_values(defn, attribute), judge) if _own(defn, judge) else UNKNOWN


def _own(defn: ClassDef, judge: Judge) -> bool:
    """``defn`` is a class of the module being checked, whose method bodies are there to read."""
    tree = checked_module(judge.api)
    return tree is not None and tree.fullname == defn.info.module_name


def _made_in_construction(defn: ClassDef, values: list[Expression], judge: Judge) -> Verdict:
    return _combined(made_verdict(value, judge, scope=construction_method(defn, value)) for value in values)


def _bound(ref: RefExpr, api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> Node | None:
    """What ``ref`` refers to; in a method body the semantic analyser has not reached yet (a class
    is analysed before its methods' bodies), looked up by name: ``f`` or ``module.f``."""
    if ref.node is not None or not isinstance(api, SemanticAnalyzerPluginInterface):
        return ref.node
    base = ref.expr if isinstance(ref, MemberExpr) else ref
    if not isinstance(base, NameExpr):
        return None
    symbol = api.lookup_qualified(base.name, ref, suppress_errors=True)
    if symbol is None or base is ref:
        return symbol.node if symbol is not None else None
    module = symbol.node
    found = module.names.get(ref.name) if isinstance(module, MypyFile) and isinstance(ref, MemberExpr) else None
    return found.node if found is not None else None


def _declared_return(callee: Node | None) -> Type | None:
    """The declared return type of a function (of a decorated one, the type its decorators give
    it once the checker has applied them: mypy's cache keeps that type, not the decorators; of a
    variable bound to one, its type) or of the first of an overload, where it holds no type
    variable (a generic function returns what it is given)."""
    if isinstance(callee, OverloadedFuncDef):
        first = callee.items[0] if callee.items else None
        callee = first.func if isinstance(first, Decorator) else first
    if isinstance(callee, Decorator):
        signature = callee.var.type
    else:  # a variable bound to a function (``chain = transforms.chain``) has its type
        signature = callee.type if isinstance(callee, (FuncDef, Var)) else None
    if not isinstance(signature, CallableType) or has_type_vars(signature.ret_type):
        return None
    returned = get_proper_type(signature.ret_type)
    return None if isinstance(returned, AnyType) else returned


def declared_type(api: CheckerPluginInterface, expr: Expression) -> ProperType | None:
    """The type of ``expr``: the checker's, or where it has none or left it ``Any`` (it checks no
    body of a function without annotations), what the declarations say: a variable's type, the
    declared return of a call of a function or of a method of a variable's class."""
    checked = checked_type(api, expr)
    if checked is not None and not isinstance(checked, AnyType):
        return checked
    if isinstance(expr, NameExpr) and isinstance(expr.node, Var) and expr.node.type is not None:
        return get_proper_type(expr.node.type)
    if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
        return None
    callee = expr.callee
    if isinstance(callee, MemberExpr) and callee.node is None:
        owner = declared_type(api, callee.expr)
        method = owner.type.get(callee.name) if isinstance(owner, Instance) else None
        return get_proper_type(_declared_return(method.node)) if method is not None else None
    returned = _declared_return(callee.node)
    return get_proper_type(returned) if returned is not None else None


def _given_to_fields(
    call: CallExpr, info: TypeInfo, judge: Judge, flow: ModuleFlow | None, scope: FuncDef | None
) -> Problem | None:
    """An instance of a class that hashes what it holds (``_hashes_what_it_holds``), given a value
    that breaks a hash for a field whose declaration leaves that open: typed ``Any``, or an
    interface that admits an unhashable builtin (``args: Sequence`` given ``[32, 64]``), unless
    construction makes the field anew (``rebuilt``). Other declared types are judged where
    declared."""
    if not _hashes_what_it_holds(info, judge):
        return None
    remade = rebuilt(info)
    for field, given in given_fields(call, info):
        symbol = info.get(field)
        if symbol is None or not isinstance(symbol.node, Var) or field in remade or not _open(symbol.node.type):
            continue
        made = [Made(given, scope)] if flow is None else _origins(flow, given, call.line, scope, MAX_STEPS - 1, set())
        problem = _combined(
            made_verdict(value.expr, judge, flow, value.scope) for value in made if value is not None
        ).problem
        if problem is not None:
            return phrases.through_part(class_name(info), field, problem)
    return None


def given_problem(
    api: CheckerPluginInterface, expr: Expression, judge: Judge, line: int, scope: FuncDef | None
) -> Problem | None:
    """What the instances ``expr`` may hold (used at ``line`` in ``scope``) were given at their
    construction, where the module shows it, that breaks a hash: judged by the values given for
    fields whose declaration leaves that open (``_given_to_fields``), never by a declared type."""
    tree = checked_module(api)
    flow = ModuleFlow(tree) if tree is not None else None
    for made in _origins(flow, expr, line, scope, MAX_STEPS, set()) if flow is not None else []:
        call = made.expr if made is not None else None
        if made is None or not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
            continue
        info = call.callee.node
        problem = _given_to_fields(call, info, judge, flow, made.scope) if isinstance(info, TypeInfo) else None
        if problem is not None:
            return problem
    return None


def given_fields(call: CallExpr, info: TypeInfo) -> Iterator[tuple[str, Expression]]:
    """The parameters of ``info``'s constructor that ``call`` (a call of the class) gives, with
    the values given: a named tuple's fields, or the parameters of its ``__init__`` (a dataclass's
    generated one names its fields); nothing after ``*args`` or ``**kwargs``."""
    if named_tuple_base(info) is not None:
        names = named_tuple_fields(info)
    else:
        init = info.get("__init__")
        signature = init.node.type if init is not None and isinstance(init.node, FuncDef) else None
        names = [name or "" for name in signature.arg_names[1:]] if isinstance(signature, CallableType) else []
    for index, (kind, name, given) in enumerate(zip(call.arg_kinds, call.arg_names, call.args)):
        if kind.is_star():
            return
        if kind == ARG_NAMED and name is not None:
            yield name, given
        elif kind == ARG_POS and index < len(names) and names[index]:
            yield names[index], given


def _undeclared(typ: Type | None) -> bool:
    return typ is None or isinstance(get_proper_type(typ), AnyType)


def _open(typ: Type | None) -> bool:
    """A declared type that leaves open whether the value hashes: none, ``Any``, one admitting an
    unhashable builtin (``declared_types.admitted_unhashable``), or an array type (JAX code
    declares a scalar an array: ``w: jax.Array`` given ``2.0``), also in a union."""
    proper = get_proper_type(typ) if typ is not None else None
    if isinstance(proper, UnionType):
        return any(_open(item) for item in proper.items)
    if isinstance(proper, Instance) and (is_array_type(proper) or admitted_unhashable(proper) is not None):
        return True
    return _undeclared(proper)


def _origins(
    flow: ModuleFlow, expr: Expression, line: int, scope: FuncDef | None, steps: int, seen: set[Var]
) -> Iterator[Made | None]:
    """The expressions that make the values ``expr`` (used at ``line`` in ``scope``) may hold;
    None for a value the module does not show (a binding it cannot read, a name followed too far)."""
    if isinstance(expr, ConditionalExpr):
        yield from _origins(flow, expr.if_expr, line, scope, steps, seen)
        yield from _origins(flow, expr.else_expr, line, scope, steps, seen)
        return
    if isinstance(expr, OpExpr) and expr.op in ("or", "and"):
        for side in [expr.left, expr.right] if expr.op == "or" else [expr.right]:
            yield from _origins(flow, side, line, scope, steps, seen)
        return
    if isinstance(expr, IndexExpr) and isinstance(expr.index, IntExpr):
        yield from _tuple_item(flow, expr, expr.index.value, line, scope, steps, seen)
        return
    owner_class = defining_class(scope) if scope is not None else None
    if (
        isinstance(expr, MemberExpr)
        and scope is not None
        and owner_class is not None
        and _own_attribute(flow, expr, scope, owner_class)
    ):
        yield from _constructed(flow, expr, owner_class, steps, seen)
        return
    if not isinstance(expr, NameExpr) or not isinstance(expr.node, Var):
        yield Made(expr, scope)
        return
    var = expr.node
    owner = flow.owners.get(var)
    declared = not _undeclared(var.type) and not var.is_inferred
    if steps <= 0 or var in seen or declared and owner is None:
        yield None
        return
    seen.add(var)
    bindings = flow.bindings.get(var, [])
    if owner is not None and not bindings:
        yield from _passed(flow, owner, var, steps - 1, seen)
        return
    binding = _reaching(bindings, line, scope)
    if binding is None or binding.values is None:
        yield None
        return
    for value in binding.values:
        yield from _origins(flow, value, binding.line, binding.scope, steps - 1, seen)


def _tuple_item(
    flow: ModuleFlow, expr: IndexExpr, index: int, line: int, scope: FuncDef | None, steps: int, seen: set[Var]
) -> Iterator[Made | None]:
    """What item ``index`` of a tuple may be (``expr``, ``base[index]``, or a target that unpacks
    ``base``): the item of each tuple display ``base`` holds, as written or as what a function of
    the module returns on every path (``params, state = init(...)``); where a value of ``base`` is
    no such display, ``expr`` itself."""
    bases = list(_origins(flow, expr.base, line, scope, steps - 1, seen)) if steps > 0 else [None]
    for base in bases:
        for display in _made_or_returned(flow, base, steps):
            if display is not None and isinstance(display.expr, TupleExpr) and index < len(display.expr.items):
                item = display.expr.items[index]
                yield from _origins(flow, item, item.line, display.scope, steps - 1, seen)
            else:
                yield Made(expr, scope) if id(expr) not in flow.unpacked else None


def _own_attribute(flow: ModuleFlow, expr: MemberExpr, scope: FuncDef, info: TypeInfo) -> bool:
    """``self.attr`` in a method (``scope``) of ``info``, a class of the module, the attribute
    declared by nothing but what is assigned to it (a declared type is judged as declared)."""
    if info.module_name != flow.module or not scope.arguments:
        return False
    symbol = info.get(expr.name)
    var = symbol.node if symbol is not None else None
    this = scope.arguments[0].variable.name
    return is_name(expr.expr, this) and isinstance(var, Var) and (var.is_inferred or _undeclared(var.type))


def _constructed(
    flow: ModuleFlow, expr: MemberExpr, info: TypeInfo, steps: int, seen: set[Var]
) -> Iterator[Made | None]:
    """What the construction of ``info`` assigns ``self.attr`` (``_own_attribute``); None for
    what its other methods may assign it, or where construction assigns it nothing (a base's)."""
    values = assigned_values(info.defn, expr.name) if steps > 0 else []
    for value in values:
        yield from _origins(flow, value, value.line, flow.scope_of(value), steps - 1, seen)
    changes = ChangeEvidence.read(info)
    if not values or changes is not None and (expr.name in changes.assigned or ANY_ATTRIBUTE in changes.assigned):
        yield None


def _reaching(bindings: list[Binding], line: int, scope: FuncDef | None) -> Binding | None:
    """The binding a use at ``line`` in ``scope`` sees: the last one written before it in the same
    scope; from another scope (a nested function, run later), the last one of all."""
    own = [binding for binding in bindings if binding.scope is scope and binding.line < line]
    chosen = own or [binding for binding in bindings if binding.scope is not scope]
    return max(chosen, key=lambda binding: binding.line) if chosen else None


def _passed(flow: ModuleFlow, function: FuncDef, var: Var, steps: int, seen: set[Var]) -> Iterator[Made | None]:
    """What a parameter may be: its default, and what the module's calls of its function pass
    for it; for one with a declared type, also what other code may pass (None), unless the flow
    follows a module-private function's parameters to the module's calls alone
    (``ModuleFlow.private_callers``: ``_solve(matrix: Sequence[...])``, called by the module)."""
    index = [argument.variable for argument in function.arguments].index(var)
    argument = function.arguments[index]
    signature = function.type
    declared = isinstance(signature, CallableType) and not _undeclared(signature.arg_types[index])
    if declared and not (flow.private_callers and private_name(function.name)):
        yield None
    if argument.initializer is not None:
        yield from _origins(flow, argument.initializer, argument.initializer.line, None, steps, seen)
    for call in flow.calls:
        bound = _bound_by(call.expr, function)
        given = _given_at(call.expr, index - bound, var.name) if bound is not None else None
        if given is not None:
            yield from _origins(flow, given, call.expr.line, call.scope, steps, seen)


def _bound_by(call: CallExpr, function: FuncDef) -> int | None:
    """How many of ``function``'s parameters ``call`` fills before its own arguments, where it
    calls ``function``: none by its name (a decorated one through its decorator); ``self`` where
    it is the ``__init__`` of the class called, or the method ``super().name(...)`` reaches."""
    callee = call.callee
    if isinstance(callee, SuperExpr) and callee.info is not None:
        symbol = next((base.names[callee.name] for base in callee.info.mro[1:] if callee.name in base.names), None)
        return 1 if symbol is not None and symbol.node is function else None
    node = callee.node if isinstance(callee, RefExpr) else None
    if isinstance(node, TypeInfo):
        init = node.get("__init__")
        return 1 if init is not None and init.node is function else None
    return 0 if node is function or isinstance(node, Decorator) and node.func is function else None
