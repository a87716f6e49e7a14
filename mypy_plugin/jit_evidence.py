"""Evidence that a value jit keys code on goes wrong, so that correct code is left alone.

A value that hashes or compares by identity (a plain class, a bound method's object), or holds
what can change in place (a list in pytree metadata), is right as long as it is built once and
never changed: ``jax.jit(env.reset)`` on an object built, jitted and never changed is how real
code (brax's own documentation) uses jit. It goes wrong only where there is evidence that

- the object changes after jit keyed code on it (stale results): code in the module being
  checked assigns an attribute of that object (``c.mul = False``) or of a variable that may hold
  it (a parameter typed as the class), not of another object made in the module, or calls a
  method of its class that assigns one (``c.reset()``), other than as a step of the object's
  construction (``changes``); or the class runs such a change itself after jit
  (``class_mutation``): the jitted method assigns, itself or through the methods it calls, which
  runs only while tracing; another of its methods calls the jitted one and changes what it
  reads; it defines ``__setattr__`` (one that raises is a guard, no change). A method that
  changes instances but that nothing runs is what the class offers its callers, who decide
  whether it runs after a trace: a call in another module is judged there (``changing_calls``);
- what an attribute holds is changed in place (``self._keys.append(k)``, ``x.table[k] = v``) by
  the class outside construction or by the module's code (``changed_in_place``): jit's cached
  treedef holds that very object, so it still compares equal;
- equal values are built again and again, in a loop or comprehension body: each hashes apart and
  compiles again (``built_per_iteration``), as each ``obj.method`` jitted in a loop does.

Construction is ``__init__``, ``__post_init__``, ``__new__`` and ``__setstate__``, class and
static methods (alternative constructors work on instances they make), and the methods that only
those call. Without evidence, a finding is the rule's opt-in twin (``phrases.unobserved``).

What a class does to its instances is read from its methods when the class is analysed and kept
as a record (``metadata.ChangeEvidence``: what each method assigns, itself or through the methods
it calls; ``JittedMethods``), so it reaches other modules through the cache,
parallel workers and the daemon. The module being checked or analysed is always at hand, so its
assignments and loops are read from its syntax tree; a class is recognised there by what its
name is bound to, or, where the analyser has not bound a later statement's names yet, by its
name, so that the verdict does not depend on how far analysis has got.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import TypeVar

from mypy.nodes import (
    LambdaExpr,
    ARG_NAMED,
    AssignmentStmt,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    Context,
    ContinueStmt,
    Decorator,
    DelStmt,
    Expression,
    ExpressionStmt,
    FuncBase,
    FuncDef,
    IfStmt,
    IndexExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    StrExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.plugin import CheckerPluginInterface, ClassDefContext, SemanticAnalyzerPluginInterface
from mypy.types import Instance, Type, UnboundType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import MEMOISERS, PARTIAL, TREE_MAPS
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import (
    STATIC_DYNAMIC_CHILD,
    STATIC_FRESH_CALLABLE,
    STATIC_NOT_FROZEN,
    STATIC_UNHASHABLE,
    STRICT_TWINS,
)
from mypy_plugin.captured_values import (
    behind,
    bound_behind,
    changed_per_iteration,
    given_for,
    per_iteration,
    read_attributes,
)
from mypy_plugin.declared_types import decorator_fullname, instance_attributes
from mypy_plugin.dependencies import analyser_judge, recorder
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name, function_name, written
from mypy_plugin.metadata import ANY_ATTRIBUTE, ChangeEvidence, JittedMethods
from mypy_plugin.method_bodies import (
    CONSTRUCTION,
    assigned_values,
    called_method,
    definition,
    holding_attributes,
    instance_methods,
    parameter_reads,
    refuses,
    read_by_callee,
    run_in_construction,
    self_reads,
    takes_self,
)
from mypy_plugin.flattened_instances import flattening_site
from mypy_plugin.jit_statics import decorated_statics
from mypy_plugin.jitted_functions import compiled, decorated_definition, jitting, may_compile, resolved
from mypy_plugin.jitted_types import Statics, is_private, private_name
from mypy_plugin.mypy_internals import (
    checked_module,
    defining_class,
    enclosing_functions,
    get_subexpressions,
    literal_hash,
    lookup,
)
from mypy_plugin.reachability import skipped
from mypy_plugin.statements import (
    assignment_targets,
    blocks,
    calls,
    code_blocks,
    each_iteration,
    is_name,
    loops,
    parameter_at,
    placed,
    present,
    ran_by,
    replaced_functions,
    taken_by,
    unpacked,
    walk,
)
from mypy_plugin.static_values import bound_method_owner, bound_method_problem, makes_function
from mypy_plugin.trace_counters import fed_by_literals, read_at
from mypy_plugin.value_origins import Site, compares_as_number, equal_copies, made_classes
from mypy_plugin.value_uses import called_only_where_made, handed_to, passed_to, used_at_once, used_in

N = TypeVar("N", bound=Node)
Api = CheckerPluginInterface | SemanticAnalyzerPluginInterface
Reads = frozenset[str] | None
"""The attributes jitted code reads through ``self`` (``method_bodies.self_reads``), None where
not known: only a change to one of them is evidence."""

CALLERS_FOLLOWED = 2
"""How many functions deep a call of a function is followed to the loop that runs it."""

MUTATORS = frozenset(
    {
        "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
        "update", "setdefault", "popitem", "add", "discard",
        "difference_update", "intersection_update", "symmetric_difference_update",
        "__setitem__", "__delitem__",
    }
)  # fmt: skip
"""Methods of the builtin containers that change them in place."""

RETURNING_MUTATORS = frozenset({"pop", "popitem", "setdefault"})
"""Those of ``MUTATORS`` that return a value: the others return None, so a call whose result is
used (``irreps = self.irreps.sort()``) is another class's method, which changes nothing in place."""


def record_class_mutation(ctx: ClassDefContext) -> None:
    """Note in the class's metadata how its own methods change its instances, if they do."""
    info = ctx.cls.info
    ChangeEvidence.erase(info)
    tree = checked_module(ctx.api)
    evidence = _own_changes(ctx.cls, tree.defs if tree is not None else [])
    if evidence.assigned or evidence.in_place:
        evidence.write(info)


def _own_changes(defn: ClassDef, module: Sequence[Node]) -> ChangeEvidence:
    """How the methods of ``defn`` (in the ``module``'s statements) that run on finished instances
    change them."""
    assigned: dict[str, str] = {}
    deleted: dict[str, str] = {}
    written: dict[str, list[Write]] = {}
    in_place: dict[str, tuple[str, ...]] = {}
    own: dict[str, set[str]] = {}  # each method run after construction: the attributes it writes
    calls: dict[str, set[str]] = {}  # and the methods it calls through self
    after = _run_after_construction(defn)
    unset = _while_unset(defn)
    for method in instance_methods(defn):
        if method.name == "__setattr__" and defn.fullname != "builtins.object" and not refuses(method):
            assigned.setdefault(ANY_ATTRIBUTE, phrases.defines_setattr(class_name(defn.info)))
        if method.name not in after or method.name == "__setattr__" or not method.arguments:
            continue  # __setattr__ is how other code assigns: those assignments are the changes
        is_self = functools.partial(is_name, name=method.arguments[0].variable.name)
        memo = _memo_fills(method, method.arguments[0].variable.name)
        for node, *_ in walk([method.body]):
            calls.setdefault(method.name, set()).update(
                expr.callee.name
                for expr in get_subexpressions(node)
                if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and is_self(expr.callee.expr)
            )
            if id(node) in memo:
                continue
            for target, attribute, _ in _writes(node):
                if not is_self(target):
                    continue
                deletes = isinstance(node, DelStmt)
                words = phrases.method_assigns(class_name(defn.info), method.name, attribute, deletes)
                (deleted if deletes else assigned).setdefault(attribute, words)  # an assignment names it better
                lazy = id(node) in unset.get((method, attribute), ())
                written.setdefault(attribute, []).append((_assigned_whole(node), method, lazy))
                own.setdefault(method.name, set()).add(attribute)
        changed = tuple(dict.fromkeys(name for name, _, _ in _in_place_changes([method.body], is_self, memo)))
        if changed:
            in_place[method.name] = changed
    for attribute, words in deleted.items():
        assigned.setdefault(attribute, words)
    for attribute in _initialised_later(defn, written, set(assigned), module):
        del assigned[attribute]
    return ChangeEvidence(assigned, in_place, _writers(own, calls, set(assigned)))


def _writers(own: dict[str, set[str]], calls: dict[str, set[str]], changed: set[str]) -> dict[str, tuple[str, ...]]:
    """Each method and the ``changed`` attributes it writes, itself or through the methods of the
    class it calls (``self._fill()``)."""
    writes = {method: set(attributes) & changed for method, attributes in own.items()}
    grown = True
    while grown:
        grown = False
        for method, called in calls.items():
            reached = set().union(*(writes.get(name, set()) for name in called)) - writes.get(method, set())
            if reached:
                writes.setdefault(method, set()).update(reached)
                grown = True
    return {method: tuple(sorted(attributes)) for method, attributes in writes.items() if attributes}


Write = tuple[Expression | None, FuncDef, bool]
"""A write of an attribute after construction: the whole value written (None for a deletion or an
unpacking), the method, and whether it runs only while the attribute is None (``_while_unset``)."""


def _initialised_later(
    defn: ClassDef, written: dict[str, list[Write]], changing: set[str], module: Sequence[Node]
) -> list[str]:
    """The attributes that the methods run after construction only initialise (``written``):
    each write gives the value the instance's state determines (``self.values = self.profile()``,
    of attributes nothing ``changing`` after construction), and either nothing else gives them a
    value (construction, a class body: ``defn``'s or a base's), or each write runs only while the
    attribute is None (a lazy cache: ``if self._adj is None: self._set_adjoint()``). Read before
    the first write, such an attribute fails or is None, which its readers fill first; written
    again, it holds an equal value: no jitted code saw another."""
    local: dict[FuncDef, set[str]] = {}

    def settled(value: Expression | None, method: FuncDef) -> bool:
        if value is None:
            return False
        names = local.setdefault(method, _unsettled_names(method, changing, module))
        return _settled(value, method.arguments[0].variable.name, names, changing, module)

    return [
        attribute
        for attribute, writes in written.items()
        if all(settled(value, method) for value, method, _ in writes)
        and (
            all(lazy for *_, lazy in writes)
            or not assigned_values(defn, attribute)
            and _only_assigned_to_self(defn.info, attribute)
        )
    ]


def _while_unset(defn: ClassDef) -> dict[tuple[FuncDef, str], set[int]]:
    """For each method of ``defn`` and attribute, the statements of the method that run only while
    the instance's attribute is None (``_guarded``), and all of a private method's
    (``_set_adjoint``) whose every call in the class runs only while it is."""
    guarded: dict[tuple[FuncDef, str], set[int]] = {}
    methods = instance_methods(defn)
    for method in methods:
        for attribute, key, region in _guarded(method, method.arguments[0].variable.name if method.arguments else ""):
            if key is None:
                guarded.setdefault((method, attribute), set()).update(id(step[0]) for step in walk(region))
    sites: dict[str, list[tuple[FuncDef, int]]] = {}  # each method's calls in the class: caller, statement
    for caller in methods:
        for node, *_ in walk([caller.body]):
            called = {called_method(expr) for expr in get_subexpressions(node)}
            for name in (name for name in called if name is not None):
                sites.setdefault(name, []).append((caller, id(node)))
    for method in methods:
        calls_of = sites.get(method.name, [])
        if not calls_of or not private_name(method.name):
            continue
        callers = {caller for caller, _ in calls_of}
        for attribute in {attribute for caller, attribute in guarded if caller in callers}:
            if all(node in guarded.get((caller, attribute), ()) for caller, node in calls_of):
                guarded.setdefault((method, attribute), set()).update(id(step[0]) for step in walk([method.body]))
    return guarded


def _memo_fills(function: FuncDef, this: str) -> set[int]:
    """The statements of ``function`` that fill a memo: they run only while a key is missing from a
    dict of ``this`` (the instance), and set that key (``if color in self.ids: return`` ... ``self.ids[color]
    = n``). Such a fill runs once per key and adds what no trace has read: one that read the key
    ran the fill first, and a jitted method's later calls skip it as the memo itself would."""
    filling: set[int] = set()
    for attribute, key, region in _guarded(function, this):
        steps = [node for node, *_ in walk(region)] if key is not None else []
        if key is not None and any(_sets_key(node, this, attribute, key) for node in steps):
            filling.update(id(node) for node in steps)
    return filling


def _sets_key(node: Node, this: str, attribute: str, key: Expression) -> bool:
    """``node`` is ``this.attribute[key] = ...``."""
    return isinstance(node, AssignmentStmt) and any(
        isinstance(target, IndexExpr)
        and isinstance(target.base, MemberExpr)
        and target.base.name == attribute
        and is_name(target.base.expr, this)
        and isinstance(target.index, RefExpr)
        and written(target.index) == written(key)
        for target in assignment_targets(node.lvalues)
    )


def _guarded(function: FuncDef, this: str) -> Iterator[tuple[str, Expression | None, Sequence[Node]]]:
    """The statements of ``function`` that run only while an attribute of ``this`` (the instance)
    is unset: (attribute, key, statements). With no key, while it is None: inside ``if
    self.attribute is None:``, or after ``if self.attribute is not None: return ...`` in the same
    block; with a key, while the key is missing from it: inside ``if key not in self.attribute:``,
    or after ``if key in self.attribute: return ...``."""
    for block in blocks([function.body]):
        for index, check in enumerate(block.body):
            test = _unset_test(check.expr[0], this) if isinstance(check, IfStmt) else None
            if not isinstance(check, IfStmt) or test is None:
                continue
            attribute, key, while_unset = test
            if while_unset:
                yield attribute, key, [check.body[0]]
            elif check.else_body is None and isinstance(check.body[0].body[-1], (ReturnStmt, RaiseStmt)):
                yield attribute, key, block.body[index + 1 :]


def _unset_test(condition: Expression, this: str) -> tuple[str, Expression | None, bool] | None:
    """What ``condition`` tests of an attribute of ``this``: (attribute, key, whether it holds while
    the attribute is unset): ``self.a is None`` (``a``, None, True), ``k in self.a`` (``a``, ``k``,
    False)."""
    if not isinstance(condition, ComparisonExpr) or len(condition.operators) != 1:
        return None
    operator, (subject, other) = condition.operators[0], condition.operands
    if operator in ("is", "is not") and isinstance(subject, MemberExpr) and is_name(subject.expr, this):
        return (subject.name, None, operator == "is") if is_name(other, "None") else None
    if operator in ("in", "not in") and isinstance(other, MemberExpr) and is_name(other.expr, this):
        return other.name, subject, operator == "not in"
    return None


def _assigned_whole(node: Node) -> Expression | None:
    """The value ``node`` assigns to attributes, where it is no tuple it unpacks."""
    if isinstance(node, AssignmentStmt) and all(isinstance(lvalue, MemberExpr) for lvalue in node.lvalues):
        return node.rvalue
    return None


def _only_assigned_to_self(info: TypeInfo, attribute: str) -> bool:
    """No class body of ``info``'s MRO declares ``attribute``: it exists only where ``self.attribute
    = ...`` runs (a dataclass field, a class attribute, has a value from the start)."""
    return all(base.names.get(attribute) is None or base.names[attribute].implicit for base in info.mro)


def _settled(value: Expression, this: str, local: set[str], changing: set[str], module: Sequence[Node]) -> bool:
    """``value`` is made of what stays as construction left it: literals, the module's names, the
    attributes of ``this`` (the instance) that no method ``changing``, and calls of those; no
    ``local`` name of the method (a parameter, a variable), nor the instance itself passed on
    (called, it runs its own ``__call__``) but to a function of the ``module`` that reads through
    it only such attributes (``signature(self)``)."""
    inside = get_subexpressions(value)
    through = [expr for expr in inside if isinstance(expr, MemberExpr) and is_name(expr.expr, this)]
    called = [expr.callee for expr in inside if isinstance(expr, CallExpr) and is_name(expr.callee, this)]
    bases = {id(member.expr) for member in through} | {id(callee) for callee in called}
    for call in (expr for expr in inside if isinstance(expr, CallExpr)):
        for place, arg in placed(call.arg_kinds, call.arg_names, call.args):
            read = read_by_callee(call, place, module) if is_name(arg, this) else None
            if read is not None and not read & changing:
                bases.add(id(arg))
    if any(member.name in changing for member in through):
        return False
    return not any(
        isinstance(expr, NameExpr) and id(expr) not in bases and (expr.name == this or expr.name in local)
        for expr in inside
    )


def _unsettled_names(function: FuncDef, changing: set[str], module: Sequence[Node]) -> set[str]:
    """The names ``function`` binds (``_local_names``) but those it only assigns what stays as
    construction left it (``adj = linear_adjoint(self.__call__, ...)``: ``_settled``)."""
    names = _local_names(function)
    this = function.arguments[0].variable.name if function.arguments else ""
    parameters = {argument.variable.name for argument in function.arguments}
    assigned: dict[str, list[Expression]] = {}
    for node, *_ in walk([function.body]):
        if isinstance(node, AssignmentStmt):
            single = len(node.lvalues) == 1 and isinstance(node.lvalues[0], NameExpr)
            for target in assignment_targets(node.lvalues):
                if isinstance(target, NameExpr):
                    assigned.setdefault(target.name, []).append(node.rvalue if single else target)
    shrunk = True
    while shrunk:
        shrunk = False
        for name, values in assigned.items():
            if (
                name in names
                and name not in parameters
                and all(_settled(v, this, names, changing, module) for v in values)
            ):
                names.discard(name)
                shrunk = True
    return names


def _local_names(function: FuncDef) -> set[str]:
    """The names ``function`` binds: its parameters, and what its body assigns or loops over
    (read from the syntax: a class's hooks run before its methods' names are bound)."""
    names = {argument.variable.name for argument in function.arguments}
    for node, _, _, bound_by in walk([function.body]):
        if isinstance(node, AssignmentStmt):
            targets = assignment_targets(node.lvalues)
        else:
            targets = assignment_targets([node]) if bound_by is not None and isinstance(node, Expression) else []
        names.update(target.name for target in targets if isinstance(target, NameExpr))
    return names


def _run_after_construction(defn: ClassDef) -> set[str]:
    """The instance methods of ``defn`` that may run on a finished instance and change it: not
    construction (``method_bodies.run_in_construction``), nor ``__hash__``, whose writes keep the
    hash it computed (``self._hash = ...``, flax's ``FrozenDict``): a hash must not change what
    compares equal."""
    instance = {method.name for method in instance_methods(defn)}
    return instance - run_in_construction(defn, {*CONSTRUCTION, "__hash__"})


def bound_method_evidence(
    api: Api, obj: Expression, info: TypeInfo, call: Context, method: str, reads: Reads = None
) -> Problem | None:
    """``jit-bound-method`` for ``jax.jit(obj.method)`` (``call``), with ``obj`` an instance of
    ``info``, saying why it goes wrong; None without evidence that it does. Only a change to an
    attribute the method ``reads`` counts, where that is known, and none where the jitted
    function is used only where it is made (``value_uses.used_at_once``): each run jits a new
    bound method, and the one jitted before is gone with its compiled code."""
    change = changes_after_construction(api, obj, info, reads, method)
    tree = checked_module(api)
    if change is not None and not (tree is not None and isinstance(call, Expression) and used_at_once(tree, call)):
        return phrases.jitted_mutable_object(class_name(info), change)
    where = repeated(api, call)
    if where is not None:
        return phrases.jitted_again(where)
    maker = jitted_per_call(api, obj, call)
    return phrases.bound_method_per_call(maker) if maker is not None else None


def jitted_per_call(api: Api, made: Context, jitted: Context) -> str | None:
    """The function, named, whose every call jits anew the function ``made`` in its own body (not
    in one around it, which runs once for many calls of it) at ``jitted``, and uses it only in
    that call (``value_uses.called_only_where_made``), not while a jit of the module traces it:
    each of its calls compiles again, which the code shows no caller repeating; None otherwise, and
    where it runs only to fill a memo (``_cached``: ``if self._vjp is None:``), or, private to
    its module (``is_private``: a public one another module may call outside any trace), only
    while a jit of the module traces its callers (``_traced_callers``)."""
    tree = checked_module(api)
    function = made_in(api, made)
    if tree is None or function is None or while_tracing(api, function) or _cached(function, tree, jitted):
        return None
    if is_private(function) and _traced_callers(api, tree, function):
        return None
    return function_name(function) if called_only_where_made(tree, jitted, function) else None


def changed_bound_method(api: CheckerPluginInterface, expr: MemberExpr) -> Problem | None:
    """``obj.method`` where jit would key on it, with the evidence that it goes wrong: a change to
    ``obj`` after construction that the method reads (``changes_after_construction``); None
    without it (the object is built once and never changed: the method compiles right)."""
    owner_type = api.get_expression_type(expr.expr)
    problem = bound_method_problem(expr, owner_type, recorder(api))
    owner = bound_method_owner(expr, owner_type) if problem is not None else None
    if problem is None or owner is None:
        return None
    change = changes_after_construction(api, expr.expr, owner, method_reads(api, owner, expr.name), expr.name)
    return None if change is None else phrases.with_change(problem, change)


def with_evidence(
    api: Api,
    problem: Problem,
    owner: TypeInfo | None = None,
    attribute: str | None = None,
    made: Context | None = None,
    static: Collection[str] = (),
    through_calls: bool = False,
    site: Site | None = None,
    reads: Reads = None,
    found: str | None = None,
    traced: str | None = None,
    value: Expression | None = None,
    shaping: Sequence[Expression] = (),
) -> Problem:
    """``problem`` of a value jit compares (pytree metadata) or keys on by identity, with the
    evidence that it goes wrong, else its opt-in twin (``phrases.unobserved``): what ``attribute``
    of an ``owner`` (whose static fields are ``static``, the rest data) holds is changed in place;
    the class whose values have the problem (``Problem.of``) changes its instances, or, where they
    compare by identity, they are built in a loop; the value is ``made`` again and again
    (``repeated``, ``through_calls`` where it meets jit right there; not where the values that
    shape its program, ``shaping``, differ at each run), or an equal copy of it meets
    jit where it does, at ``site`` (``copied``). A static ``self`` counts only changes to
    attributes its method (``traced``) ``reads``; what the caller ``found`` itself
    (``written_while_tracing``) comes first. Where the ``value`` judged is known, only changes to
    it count, not other instances of its class built in a loop. An array in the metadata of an
    ``owner``: that an instance meets jit, which compares it with another's (``flattened_by_jit``);
    a 0-d one ``made`` from a number
    (``value_origins.compares_as_number``) compares as the number: that it is compared while jit
    traces (``compared_while_tracing``). Any other array needs no evidence."""
    if problem.rule not in STRICT_TWINS:
        return problem
    if problem.rule is STATIC_DYNAMIC_CHILD:
        checker = api if isinstance(api, CheckerPluginInterface) else None
        if checker is not None and isinstance(made, Expression) and compares_as_number(checker, made):
            evidence = compared_while_tracing(checker, made, attribute)
        elif owner is not None and attribute is not None:
            evidence = flattened_by_jit(api, owner)
        else:
            return problem
        return phrases.unobserved(problem) if evidence is None else phrases.with_change(problem, evidence)
    evidence = found
    if evidence is None and problem.rule is STATIC_UNHASHABLE and owner is not None and attribute is not None:
        evidence = changed_in_place(api, owner, attribute, set(instance_attributes(owner)) - set(static))
    symbol = lookup(problem.of, api) if problem.of is not None else None
    if evidence is None and symbol is not None and isinstance(symbol.node, TypeInfo):
        compared = problem.rule is STATIC_NOT_FROZEN  # equal copies compare equal: only a change counts
        info = symbol.node
        if compared or value is not None:
            evidence = changes_after_construction(api, value, info, reads, traced)
        else:
            evidence = identity_evidence(api, info, reads, traced) or built_with_owner(api, info, owner, attribute)
    if evidence is None and problem.rule is STATIC_FRESH_CALLABLE and made is not None:
        used = site.call if site is not None else None
        where = repeated(api, made, through_calls, shaping, used) or (
            called_again(api, made) if through_calls else None
        )
        where = where or copied(api, made, site)
        evidence = phrases.made_again(where) if where is not None else None
    return phrases.unobserved(problem) if evidence is None else phrases.with_change(problem, evidence)


def written_while_tracing(function: FuncDef, index: int, tree: MypyFile | None, info: TypeInfo | None) -> str | None:
    """Where ``function``, which jit traces, assigns an attribute of its parameter at ``index``
    (a static ``self``), an instance of ``info``: that runs only while jit traces, so the calls
    that find the compiled code skip it, and it leaves a tracer in the object, whatever else reads
    it (even one made of the instance's unchanged state: inside a trace, what jax computes is a
    tracer). Not a write meant to run once, a lazy cache's or a memo's fill (``_guarded``), of a
    value that jax does not compute (``_made_without_jax``): the calls that skip it would skip it
    anyway. A counter or a flag only literals feed holds no tracer (``trace_counters``): its
    write counts only where the module reads it."""
    if index >= len(function.arguments):
        return None
    module = tree.defs if tree is not None else []
    name = function.arguments[index].variable.name
    once = {
        (attribute, id(step))
        for attribute, key, region in _guarded(function, name)
        if key is None
        for step, *_ in walk(region)
    }
    memo, local = _memo_fills(function, name), _local_names(function)
    for node, *_ in walk([function.body]):
        attribute = next((attribute for target, attribute, _ in _writes(node) if is_name(target, name)), None)
        if attribute is None:
            continue
        value = _assigned_whole(node)
        meant_once = (attribute, id(node)) in once or id(node) in memo
        if meant_once and value is not None and _made_without_jax(value, name, local, module):
            continue
        counter, line = _counter(info, attribute, tree)
        if not counter:
            return phrases.assigned_while_tracing(function_name(function), name, attribute)
        if line is not None:
            return phrases.counted_while_tracing(function_name(function), name, attribute, line)
    return None


def _counter(info: TypeInfo | None, attribute: str, tree: MypyFile | None) -> tuple[bool, int | None]:
    """Whether ``attribute`` of an instance of ``info`` is a counter or a flag only literals feed
    (``trace_counters``), and where it is, the line that the module ``tree`` reads it at."""
    if tree is None or info is None or not fed_by_literals(info, attribute, tree):
        return False, None
    return True, read_at(info, attribute, tree, _instance_targets(None, info, _built_as(tree.defs, info)))


def _made_without_jax(value: Expression, this: str, local: set[str], module: Sequence[Node]) -> bool:
    """``value`` is made of the state of ``this`` (``_settled``) by calls of functions and classes
    other than jax's, which compute no tracer from it while jit traces (a method's, which may be
    an array's, is not known)."""
    return _settled(value, this, local, set(), module) and all(
        isinstance(expr.callee, RefExpr)
        and isinstance(expr.callee.node, (FuncBase, Decorator, TypeInfo))
        and expr.callee.node.fullname.partition(".")[0] not in ("jax", "jaxlib")
        for expr in get_subexpressions(value)
        if isinstance(expr, CallExpr)
    )


def compared_while_tracing(api: CheckerPluginInterface, made: Expression, attribute: str | None) -> str | None:
    """Where the value ``made`` makes (or the instance it is field ``attribute`` of: the value of
    the call it is given to) is compared while jit traces: made inside a function that jit
    traces, or read inside one (a jitted closure that passes it on to another jitted function,
    whose cache lookup compares it then), or given to a jitted function of the module that
    compares that field (``x.a == 1``); None where the module shows none of that."""
    tree = checked_module(api)
    if tree is None:
        return None
    holder = handed_to(tree, made)
    around = [function for function in enclosing_functions(api)[1] if isinstance(function, FuncDef)]
    used = used_in(tree, made) | (used_in(tree, holder) if holder is not None else set())
    scopes = [*around, *(scope for scope in used if scope is not None)]
    traced = next((scope for scope in scopes if jitting(tree, scope)), None)
    if traced is None and holder is not None and attribute is not None:
        traced = next(
            (
                function
                for call, argument in passed_to(tree, holder)
                for function, parameter in _jitted_parameter(tree, call, argument)
                if _compares(function, parameter, attribute)
            ),
            None,
        )
    return phrases.compared_while_tracing(traced.name) if traced is not None else None


def _jitted_parameter(tree: MypyFile, call: CallExpr, argument: Expression) -> Iterator[tuple[FuncDef, str]]:
    """The function of the module that ``call`` runs, where jit traces it, with the name of its
    parameter that takes ``argument``."""
    function = definition(call.callee.node) if isinstance(call.callee, NameExpr) else None
    parameter = taken_by(function, call, argument) if function is not None and jitting(tree, function) else None
    if function is not None and parameter is not None:
        yield function, parameter.name


def _compares(function: FuncDef, parameter: str, attribute: str) -> bool:
    """``function`` compares ``parameter.attribute`` with something (``x.a == 1``)."""
    return any(
        isinstance(expr, ComparisonExpr)
        and any(
            isinstance(operand, MemberExpr) and operand.name == attribute and is_name(operand.expr, parameter)
            for operand in expr.operands
        )
        for node, *_ in walk([function.body])
        for expr in get_subexpressions(node)
    )


def flattened_by_jit(api: Api, info: TypeInfo) -> str | None:
    """Where the module hands an instance of ``info`` to jit, which compares its pytree metadata
    with another instance's (``flattened_instances``); None where it shows none."""
    tree = checked_module(api)
    if tree is None:
        return None
    targets = _instance_targets(None, info, _built_as(tree.defs, info))

    def instance(expr: Expression) -> bool:
        if not isinstance(expr, CallExpr):
            return targets(expr)
        factory = definition(resolved(tree, expr.callee))
        if factory is None and isinstance(expr.callee, NameExpr):  # not bound yet: by its name
            factory = next((f for f in tree.defs if isinstance(f, FuncDef) and f.name == expr.callee.name), None)
        return _class_called(expr, info) is info or factory is not None and _builds(factory, info)

    site = flattening_site(tree, info, instance)
    return phrases.handed_to_jit(class_name(info), *site) if site is not None else None


def _builds(function: FuncDef, info: TypeInfo) -> bool:
    """``function`` returns an instance of ``info`` it builds (``return Agent(...)``; in a class
    method of ``info`` or a base, ``return cls(...)``)."""
    maker = function.arguments[0].variable.name if function.is_class and function.arguments else None
    if maker is not None and (function.info is None or function.info not in info.mro):
        maker = None
    return any(
        isinstance(node, ReturnStmt)
        and isinstance(node.expr, CallExpr)
        and (_calls_class(node.expr, info) or maker is not None and is_name(node.expr.callee, maker))
        for node, _, scope, _ in walk([function.body], scope=function)
        if scope is function
    )


def identity_evidence(api: Api, info: TypeInfo, reads: Reads = None, traced: str | None = None) -> str | None:
    """Why a value of ``info`` that hashes or compares by identity goes wrong where jit keys code
    on it: its instances change after they are made (an attribute the code ``reads``, where that
    is known; ``traced``, a static ``self``'s method), or are built inside a loop; None without
    evidence."""
    return changes_after_construction(api, None, info, reads, traced) or built_per_iteration(api, info)


def built_per_iteration(api: Api, info: TypeInfo) -> str | None:
    """``Class(...)`` called once per iteration of a loop or comprehension in the module being
    checked (equal instances made again, which hash apart). Not where it is given what differs at
    each iteration (``_differ``: one environment per name, each another value, another program
    whatever it hashes by). Only a loop: an instance made by every call of a function reaches jit
    only where it is passed, and is judged there (``repeated``)."""
    tree = checked_module(api)
    for node, looping, scope, _ in walk(tree.defs if tree is not None else []):
        inside = get_subexpressions(node)
        for expr in inside:
            if isinstance(expr, CallExpr) and _calls_class(expr, info) and each_iteration(looping, inside, expr):
                if not _differ(api, expr.args, scope, inside, expr):
                    return phrases.built_again(class_name(info), phrases.repeatedly(expr.line))
    return None


def built_with_owner(api: Api, info: TypeInfo, owner: TypeInfo | None, attribute: str | None) -> str | None:
    """The construction of ``owner`` builds the ``info`` its ``attribute`` holds
    (``self.basis = Basis(...)`` in ``__init__``), and ``owner`` is built once per iteration of a
    loop (``built_per_iteration``): each new owner holds a new value, hashed apart."""
    if owner is None or attribute is None:
        return None
    values = assigned_values(owner.defn, attribute)  # none where owner's body is another module's, cached
    if not any(isinstance(value, CallExpr) and _calls_class(value, info) for value in values):
        return None
    where = built_per_iteration(api, owner)
    return phrases.built_with(class_name(owner), class_name(info), where) if where is not None else None


def _calls_class(call: CallExpr, info: TypeInfo) -> bool:
    """``call`` builds an instance of ``info``: its callee is bound to the class, or, not bound
    yet (a statement the semantic analyser has not reached) or bound to a variable (the class as
    a factory returned it, kept under its name), is spelled with its name."""
    callee = call.callee
    unknown = callee.node is None or isinstance(callee.node, Var) if isinstance(callee, RefExpr) else False
    return isinstance(callee, RefExpr) and (callee.node is info or unknown and callee.name == info.name)


def changed_in_place(api: Api, info: TypeInfo, attribute: str, data: Collection[str] = ()) -> str | None:
    """How what ``attribute`` of an instance of ``info`` holds is changed in place after the
    instance was made, by the class (or a base) or by the module's code; None without evidence.
    A method that changes one of the ``data`` fields' containers too changes the instance's
    pytree structure with it (``Updates.append`` appends a key and a value), so jit compiles
    anew instead of reusing stale code: no evidence."""
    dependent_judge(api, info)
    for base in info.mro:
        found = ChangeEvidence.read(base)
        for method, names in found.in_place.items() if found is not None else ():
            if attribute in names and not set(names) & set(data):
                return phrases.changes_in_place(class_name(base), method, attribute)
    tree = checked_module(api)
    if tree is None:
        return None
    targets = _instance_targets(None, info, _built_as(tree.defs, info))
    for name, target, line in _in_place_changes(tree.defs, targets):
        if name == attribute:
            return phrases.changed_in_place_at(target, attribute, line)
    return None


def changes_after_construction(
    api: Api, obj: Expression | None, info: TypeInfo, reads: Reads = None, traced: str | None = None
) -> str | None:
    """How ``obj``, an instance of ``info``, changes after it was made (``class_mutation``,
    then ``module_mutation``), or None; the classes consulted become dependencies. With
    ``reads`` (``method_bodies.self_reads``), only a change to an attribute read counts; with
    ``traced``, the method of ``info`` that jit traces."""
    judge = dependent_judge(api, info)
    return class_mutation(api, info, judge, reads, traced) or module_mutation(api, obj, info, reads)


def method_reads(api: Api, info: TypeInfo, name: str) -> Reads:
    """What the method ``name`` of ``info`` reads through ``self``, where the module being checked
    shows it (``method_bodies.self_reads``)."""
    tree = checked_module(api)
    symbol = info.get(name)
    method = definition(symbol.node) if symbol is not None else None
    return self_reads(method, tree) if method is not None and tree is not None else None


def parameter_reads_of(api: Api, function: FuncDef, index: int, typ: Type) -> Reads:
    """What ``function`` reads through its parameter at ``index``, declared ``typ``
    (``method_bodies.parameter_reads``); None for a type that is no class's instance."""
    tree = checked_module(api)
    proper = get_proper_type(typ)
    if tree is None or not isinstance(proper, Instance):
        return None
    return parameter_reads(function, index, proper.type, tree)


def counted(info: TypeInfo, attributes: Iterable[str], reads: Reads) -> list[str]:
    """The ``attributes`` changed that count for a jitted method reading ``reads`` through an
    instance of ``info``: those it reads (all, where that is not known); one whose name is not
    known (``setattr(self, key, value)``) where it reads some state of the instance, not only
    methods of its class, which live on the class. Named ones first: they say more."""
    state = reads is None or any(not _is_method(info, name) for name in reads)
    found = [name for name in attributes if reads is None or name in reads or name == ANY_ATTRIBUTE and state]
    return sorted(found, key=lambda name: name == ANY_ATTRIBUTE)


def _is_method(info: TypeInfo, name: str) -> bool:
    symbol = info.get(name)
    return symbol is not None and isinstance(symbol.node, (FuncBase, Decorator))


def dependent_judge(api: Api, info: TypeInfo) -> Judge:
    """A judge that has recorded ``info`` and its bases as dependencies of the code at hand."""
    judge = recorder(api) if isinstance(api, CheckerPluginInterface) else analyser_judge(api)
    for base in info.mro:
        judge.looked_through(base)
    return judge


def class_mutation(
    api: Api, info: TypeInfo, judge: Judge, reads: Reads = None, traced: str | None = None
) -> str | None:
    """How the class itself changes instances of ``info`` after jit keyed code on them, as
    recorded for it or a base: it defines ``__setattr__`` (not one that raises, a guard:
    ``method_bodies.refuses``); the method jit traces (``traced``)
    assigns through the methods it calls, which runs only while tracing (but a counter or a flag
    that nothing reads: ``trace_counters``); or a method of the class
    calls ``traced`` and changes what it ``reads`` (each call after the first runs stale code).
    A method that changes instances and that nothing of the class runs after jit is the class's
    interface: whether it runs after a trace is up to its callers (``module_mutation``, and
    ``changing_call`` in other modules). Not what a trusted library class records of itself (the
    ``__setattr__`` of a flax or equinox module guards its fields and names its submodules)."""
    runs = next((base for base in info.mro if traced in base.names), None) if traced is not None else None
    tree = checked_module(api)
    for base in info.mro:
        found = ChangeEvidence.read(base)
        if found is None or judge.trusts(base) or judge.hashes_fields(base):
            continue
        if "__setattr__" in base.names and base.fullname != "builtins.object" and ANY_ATTRIBUTE in found.assigned:
            return phrases.defines_setattr(class_name(base))
        written = found.writers.get(traced, ()) if traced is not None and base is runs else ()
        written = tuple(attribute for attribute in written if _counter(info, attribute, tree) != (True, None))
        if traced is not None and written:
            assigns = phrases.method_assigns(class_name(base), traced, written[0])
            return phrases.while_tracing(assigns, f"{class_name(info)}.{traced}")
        driver = _driving_method(api, base, found, traced, reads) if traced is not None else None
        if driver is not None:
            return driver
    return None


def _driving_method(api: Api, base: TypeInfo, found: ChangeEvidence, traced: str, reads: Reads) -> str | None:
    """A method of ``base``, a class of the module being checked, that calls the method
    ``traced`` through ``self`` and changes an attribute it ``reads``; also through an attribute
    that holds what the class made of the bound method (``self.f = jax.jit(self.step)``)."""
    tree = checked_module(api)
    if tree is None or base.module_name != tree.fullname:
        return None
    runners = {traced, *holding_attributes(base.defn, traced)}
    for method in instance_methods(base.defn):
        changed = counted(base, found.writers.get(method.name, ()), reads)
        if not changed or method.name == traced or not method.arguments:
            continue
        this = method.arguments[0].variable.name
        for node, *_ in walk([method.body]):
            for expr in get_subexpressions(node):
                callee = expr.callee if isinstance(expr, CallExpr) else None
                if isinstance(callee, MemberExpr) and callee.name in runners and is_name(callee.expr, this):
                    return phrases.calls_and_changes(f"{class_name(base)}.{method.name}", callee.name, changed[0])
    return None


def module_mutation(api: Api, obj: Expression | None, info: TypeInfo, reads: Reads = None) -> str | None:
    """A change, in the module being checked, to ``obj`` (``c.mul = False`` at line 21, a call of
    a method of its class that assigns an attribute: ``c.reset()``) or to a variable that may
    hold it: one declared as an instance of ``info`` (a parameter, an attribute), not one made
    another instance by ``x = Class(...)``. Without ``obj`` (a static ``self``: which instance is
    not known; ``self`` itself) any instance counts, those made by ``x = Class(...)`` too (the
    checker may not have reached that line yet). A change made as a step of the object's
    construction (``changes``) is none."""
    tree = checked_module(api)
    if tree is None:
        return None
    if isinstance(obj, NameExpr) and isinstance(obj.node, Var) and obj.node.is_self:
        obj = None
    targets = _instance_targets(obj, info, _built_as(tree.defs, info))
    writers = writers_of(info)
    for attributes, what, line in changes(api, tree.defs, targets, writers, info):
        changed = counted(info, attributes, reads)
        if changed:
            return phrases.changed_at(what, changed[0], line)
    return None


def static_self_methods(api: Api, info: TypeInfo) -> Iterator[tuple[str, Reads]]:
    """The methods of ``info`` (its own or a base's) jitted with a static ``self``
    (``jit_statics.decorated_statics``), each with what it reads through ``self``
    (``method_reads``)."""
    seen: set[str] = set()
    for base in info.mro:
        for name, symbol in base.names.items():
            node = symbol.node
            if name in seen or not isinstance(node, Decorator) or not takes_self(node.func):
                continue
            if isinstance(api, CheckerPluginInterface):
                statics = decorated_statics(api, node)
            else:
                statics = Statics.carried(node.var.type) if node.var.type is not None else None
            if statics is not None and (0 in statics.nums or "self" in statics.names):
                seen.add(name)
                yield name, method_reads(api, info, name)


def writers_of(info: TypeInfo) -> dict[str, tuple[str, ...]]:
    """The methods of ``info`` and its bases that change an instance, with what they assign
    (``ChangeEvidence.writers``; a property setter is recorded under the property's name)."""
    writers: dict[str, tuple[str, ...]] = {}
    for base in reversed(info.mro):
        found = ChangeEvidence.read(base)
        writers.update(found.writers if found is not None else {})
    return writers


def _instance_targets(
    obj: Expression | None, info: TypeInfo, built: dict[Var | str, TypeInfo]
) -> Callable[[Expression], bool]:
    """Whether an expression may be ``obj``, or without it any instance of ``info``: a variable
    declared as one, or assigned ``Class(...)`` (``built``, by variable, or by name where the
    analyser has not bound it yet)."""
    same = obj.node if isinstance(obj, RefExpr) and isinstance(obj.node, Var) else None

    def targets(expr: Expression) -> bool:
        if isinstance(expr, NameExpr) and expr.node is None:  # not bound yet: by its name
            return obj is None and info in _mro(built.get(expr.name))
        if not isinstance(expr, RefExpr) or not isinstance(expr.node, Var) or expr.node.is_self:
            return False  # writes through self are the class's own (class_mutation)
        if expr.node is same:
            return True
        if obj is not None and expr.node in built:
            return False  # another object the module made
        declared = get_proper_type(expr.node.type) if expr.node.type is not None else None
        cls = declared.type if isinstance(declared, Instance) else built.get(expr.node)
        return info in _mro(cls)

    return targets


def _mro(info: TypeInfo | None) -> list[TypeInfo]:
    return [] if info is None else info.mro


def _built_as(nodes: Sequence[Node], info: TypeInfo) -> dict[Var | str, TypeInfo]:
    """The variables assigned an instance of a class by calling it (``obj = MyClass()``, also
    unpacked: ``a, b = A(), B()``), by variable; by name where the analyser has not bound the
    statement yet (then only those of ``info``, the one class recognised by its name, and the
    parameters declared as it)."""
    built: dict[Var | str, TypeInfo] = {}
    for node, _, scope, _ in walk(nodes, definitions=True):
        if isinstance(node, FuncDef):
            for argument in node.arguments:
                declared = argument.type_annotation
                if isinstance(declared, UnboundType) and declared.name.rpartition(".")[2] == info.name:
                    built[argument.variable.name] = info
        if not isinstance(node, AssignmentStmt):
            continue
        for lvalue, rvalue in (pair for target in node.lvalues for pair in unpacked(target, node.rvalue)):
            cls = _class_called(rvalue, info, scope) if isinstance(rvalue, CallExpr) else None
            if cls is None:
                continue
            if isinstance(lvalue, RefExpr) and isinstance(lvalue.node, Var):
                built[lvalue.node] = cls
            elif isinstance(lvalue, NameExpr) and lvalue.node is None:
                built[lvalue.name] = cls
    return built


Change = tuple[tuple[str, ...], str, int]
"""A change of an object: the attributes it assigns, what it is as written (``c.n``; a call,
``c.reset()``), and its line."""


def changes(
    api: Api,
    nodes: Sequence[Node],
    targets: Callable[[Expression], bool],
    writers: dict[str, tuple[str, ...]],
    info: TypeInfo,
) -> Iterator[Change]:
    """Each change below ``nodes``, in order, to an object that satisfies ``targets``: an
    attribute assigned (``x.n = 1``, ``del x.n``, ``setattr(x, ...)``; a property whose setter
    assigns others, which ``writers`` records under its name), or a call of a method of ``info``
    that assigns attributes (``x.reset()``: ``writers``). Not a step of the object's
    construction: made in the same function by calling a class (``env = Env(...)``,
    ``self.jr = Renderer(...)``) and changed before anything else mentions it but calls of its
    methods that run no jitted code (``env.load(path)``; ``_traces_nothing``), not under a loop
    the construction is outside: no code can have been traced with it yet."""
    fresh: dict[tuple[int, str], tuple[bool, TypeInfo]] = {}  # made, not used yet: in a loop, its class
    for node, looping, scope, _ in walk(nodes):
        found = list(_changes_in(node, targets, writers))
        harmless = {id(receiver) for *_, receiver in found}
        inside = get_subexpressions(node)
        for expr in inside:
            if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr):
                made = fresh.get((id(scope), written(expr.callee.expr)))
                if made is not None and _traces_nothing(api, made[1], expr.callee.name):
                    harmless.add(id(expr.callee.expr))
        for expr in inside:
            if isinstance(expr, RefExpr) and id(expr) not in harmless:
                fresh.pop((id(scope), written(expr)), None)
        for attributes, what, line, receiver in found:
            made = fresh.get((id(scope), written(receiver)))
            if made is None or looping and not made[0]:
                yield attributes, what, line
        for target, cls in _made_by_calling_a_class(node, info):
            fresh[(id(scope), written(target))] = (looping, cls)


def _traces_nothing(api: Api, info: TypeInfo, method: str) -> bool:
    """Calling ``method`` on an instance of ``info`` runs no method the class jits
    (``JittedMethods``): it is none, and none is among what it reads through ``self``
    (``method_reads``, which knows of every method it reaches that way)."""
    records = [JittedMethods.read(base) for base in info.mro]
    jitted = {name for record in records if record is not None for name in record.names}
    reads = method_reads(api, info, method) if info.get(method) is not None else None
    return method not in jitted and reads is not None and not reads & jitted


def _changes_in(
    node: Node, targets: Callable[[Expression], bool], writers: dict[str, tuple[str, ...]]
) -> Iterator[tuple[tuple[str, ...], str, int, Expression]]:
    """The changes ``node`` makes (``changes``), each with the object changed."""
    for target, attribute, line in _writes(node):
        if targets(target):
            yield (attribute, *writers.get(attribute, ())), written(target), line, target
    for expr in get_subexpressions(node):
        if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name in writers:
            if targets(expr.callee.expr):
                called = phrases.changing_call(written(expr.callee.expr), expr.callee.name)
                yield writers[expr.callee.name], called, expr.line, expr.callee.expr


def _made_by_calling_a_class(node: Node, info: TypeInfo) -> list[tuple[RefExpr, TypeInfo]]:
    """The names and attributes ``node`` assigns an instance it makes by calling a class, with
    the class (``info``, where its name is not bound yet)."""
    if not isinstance(node, AssignmentStmt) or not isinstance(node.rvalue, CallExpr):
        return []
    cls = _class_called(node.rvalue, info)
    return [(lvalue, cls) for lvalue in node.lvalues if isinstance(lvalue, RefExpr)] if cls is not None else []


def _class_called(call: CallExpr, info: TypeInfo, scope: FuncDef | None = None) -> TypeInfo | None:
    """The class ``call`` builds an instance of: the one its callee is bound to, ``info``,
    recognised by its name where the analyser has not bound it yet (``_calls_class``), or the
    class of the class method ``scope`` where it calls its ``cls`` (``tree_unflatten``), as the
    checker types what it makes."""
    callee = call.callee
    if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):
        return callee.node
    if isinstance(callee, NameExpr) and isinstance(callee.node, Var) and callee.node.is_cls and scope is not None:
        return defining_class(scope)
    return info if _calls_class(call, info) or _class_factory(call, info) else None


def _class_factory(call: CallExpr, info: TypeInfo) -> bool:
    """``call`` is ``Cls.make(...)``, a class method of ``info`` (or a base) that returns the
    instance it builds (``return cls(...)``)."""
    callee = call.callee
    if not isinstance(callee, MemberExpr) or not isinstance(callee.expr, RefExpr):
        return False
    holder = callee.expr
    if not (holder.node is info or holder.node is None and holder.name == info.name):
        return False
    method = definition(info.get_method(callee.name))
    return method is not None and method.is_class and _builds(method, info)


def _in_place_changes(
    nodes: Sequence[Node], targets: Callable[[Expression], bool], skipped: Collection[int] = ()
) -> Iterator[tuple[str, str, int]]:
    """Each ``x.attr.append(...)``, ``x.attr[k] = v``, ``del x.attr[k]`` below ``nodes`` whose
    ``x`` satisfies ``targets``, but in the statements ``skipped``: (attribute, x as written, line)."""
    for node, *_ in walk(nodes):
        for member in _changed_contents(node) if id(node) not in skipped else []:
            if targets(member.expr):
                yield member.name, written(member.expr), member.line


def _changed_contents(node: Node) -> list[MemberExpr]:
    """The ``x.attr`` whose contents a simple statement changes in place."""
    alone = node.expr if isinstance(node, ExpressionStmt) else None  # a call whose result is unused
    found = [
        expr.callee.expr
        for expr in get_subexpressions(node)
        if isinstance(expr, CallExpr)
        and isinstance(expr.callee, MemberExpr)
        and expr.callee.name in MUTATORS
        and (expr is alone or expr.callee.name in RETURNING_MUTATORS)
        and isinstance(expr.callee.expr, MemberExpr)
    ]
    if isinstance(node, AssignmentStmt):
        indexed: list[Expression] = [
            lvalue for lvalue in assignment_targets(node.lvalues) if isinstance(lvalue, IndexExpr)
        ]
    elif isinstance(node, (OperatorAssignmentStmt, DelStmt)):
        target = node.lvalue if isinstance(node, OperatorAssignmentStmt) else node.expr
        indexed = [target] if isinstance(target, IndexExpr) else []
    else:
        indexed = []
    return found + [expr.base for expr in indexed if isinstance(expr, IndexExpr) and isinstance(expr.base, MemberExpr)]


def _writes(node: Node) -> list[tuple[Expression, str, int]]:
    """The attributes a simple statement writes: (object, attribute name, line)."""
    if isinstance(node, ExpressionStmt) and isinstance(node.expr, CallExpr):
        written = _setattr_arguments(node.expr)
        if written is None:
            return []
        target, name = written
        return [(target, name.value if isinstance(name, StrExpr) else ANY_ATTRIBUTE, node.line)]
    if isinstance(node, AssignmentStmt):
        lvalues: list[Expression] = [lvalue for lvalue in node.lvalues if not _wraps_itself(lvalue, node.rvalue)]
    elif isinstance(node, OperatorAssignmentStmt):
        lvalues = [node.lvalue]
    elif isinstance(node, DelStmt):
        lvalues = [node.expr]
    else:
        return []
    return [(member.expr, member.name, member.line) for member in _attributes(lvalues)]


def _wraps_itself(lvalue: Expression, rvalue: Expression) -> bool:
    """``x.m = wrap(x.m, ...)`` (``obj.step = jax.jit(obj.step)``): the name now finds a wrapper
    of the same bound method, and nothing that method reads has changed."""
    first = rvalue.args[0] if isinstance(rvalue, CallExpr) and rvalue.args else None
    return (
        isinstance(lvalue, MemberExpr)
        and isinstance(first, MemberExpr)
        and first.name == lvalue.name
        and written(first.expr) == written(lvalue.expr)
    )


def _attributes(lvalues: Sequence[Expression]) -> list[MemberExpr]:
    """The ``x.attr`` among assignment targets, inside tuples and lists too."""
    return [lvalue for lvalue in assignment_targets(lvalues) if isinstance(lvalue, MemberExpr)]


def _setattr_arguments(call: CallExpr) -> tuple[Expression, Expression] | None:
    """The object and attribute name of ``setattr(x, name, v)``, ``object.__setattr__(x, name, v)``
    or ``x.__setattr__(name, v)``."""
    callee, args = call.callee, call.args
    if isinstance(callee, MemberExpr) and callee.name == "__setattr__":
        return (args[0], args[1]) if len(args) == 3 else (callee.expr, args[0]) if len(args) == 2 else None
    if isinstance(callee, NameExpr) and callee.name == "setattr" and len(args) == 3:
        return args[0], args[1]
    return None


def _placed(api: Api, made: Context) -> tuple[bool, FuncDef | None, Sequence[Expression]]:
    """Whether ``made`` (an expression, or a local function's definition) runs once per iteration
    of a loop or comprehension in its own function, that function (None at module level, or
    where ``made`` is not in the module), and the expressions of the statement it is in."""
    tree = checked_module(api)
    definition = isinstance(made, FuncDef)
    for node, looping, scope, _ in walk(tree.defs if tree is not None else [], definitions=definition):
        if isinstance(node, FuncDef):
            if node is made:
                return looping, scope, ()
            continue
        inside = get_subexpressions(node)
        if any(expr is made for expr in inside):
            return each_iteration(looping, inside, made), scope, inside
    return False, None, ()


def made_in(api: Api, made: Context) -> FuncDef | None:
    """The function whose runs make ``made`` (a local function's definition runs in the one that
    defines it, not where its name is jitted); None at module level."""
    return _placed(api, made)[1]


def repeated(
    api: Api,
    made: Context,
    through_calls: bool = True,
    shaping: Sequence[Expression] = (),
    used: Context | None = None,
    eager: bool = False,
) -> str | None:
    """Where the module runs ``made`` again and again, making a new object each time
    (``phrases.repeatedly``): inside a loop or comprehension, or, ``through_calls``, in a function
    that a loop of the module calls (``f(...)``, ``self.f(...)`` in its class, ``obj.f(...)`` on
    an instance the module makes), directly or from a function that such a call runs; None
    without evidence. Through calls where what is made meets jit right there (a static argument,
    what ``jax.jit`` is given): a value a function builds and returns reaches jit, if at all,
    where it is passed. Not where values ``made`` holds that shape its program (``shaping``, read
    where it is made: ``captured_values``) are computed from what differs at each iteration:
    each run makes another program. Nor where the loop makes it only on some iterations and keeps
    it for the others (``_kept_across_iterations``). Nor inside a function a jit compiles
    (``while_tracing``): that code runs while jit traces it, once per cache key; nor in a
    function a later definition replaces (``statements.replaced_functions``), which never runs;
    nor where it is made, or meets jit, in a lambda handed to a call (``_deferred``: a memo's
    builder runs when the memo calls it).
    Where ``used``, the place it meets jit (the jit call, a jitted call it is passed to), lies
    after the loops that make it, only the last value meets jit (``_left_behind``). ``eager``: only
    a loop of the module's own top-level code counts, which no jit traces, wherever the functions
    on the way are called from."""
    looping, function, inside = _placed(api, made)
    tree = checked_module(api)
    if tree is not None and (
        function in replaced_functions(tree.defs) or _deferred(tree, [made] if used is None else [made, used])
    ):
        return None
    if looping and used is not None and tree is not None and _left_behind(function, tree, made, used):
        looping = False
    if looping and eager and function is not None:
        looping = False
    if looping:
        kept = tree is not None and (_kept_across_iterations(function, tree, made) or _cached(function, tree, made))
        where = None if kept or _differ(api, shaping, function, inside, made) else phrases.repeatedly(made.line)
    else:
        cached = function is not None and tree is not None and _cached(function, tree, made)
        where = (
            _called_in_loop(api, function, made, shaping=shaping, eager=eager)
            if function is not None and through_calls and not cached
            else None
        )
    return None if where is None or while_tracing(api, function) else where


def _deferred(tree: MypyFile, sites: Sequence[Context]) -> bool:
    """One of the ``sites`` (what makes the value, where it meets jit) is in the body of a lambda
    handed to a function of the module that calls it only to fill a memo (``memo(key, lambda:
    jax.jit(f))`` with ``if key not in cache: cache[key] = build()``: ``_cached``): it runs once
    per key, where the memo calls it, not where the lambda is made."""
    wanted = {id(site) for site in sites}
    for call in calls(tree.defs):
        receiver = definition(call.callee.node) if isinstance(call.callee, NameExpr) else None
        for place, arg in placed(call.arg_kinds, call.arg_names, call.args):
            if isinstance(arg, LambdaExpr) and any(id(inner) in wanted for inner in get_subexpressions(arg.expr())):
                parameter = parameter_at(receiver, place) if receiver is not None else None
                if receiver is not None and parameter is not None and _memo_builder(tree, receiver, parameter):
                    return True
    return False


def _memo_builder(tree: MypyFile, function: FuncDef, parameter: str) -> bool:
    """``function`` calls its ``parameter``, and only to fill a memo (``_cached``)."""
    built = [call for call in calls([function.body]) if is_name(call.callee, parameter)]
    return bool(built) and all(_cached(function, tree, call) for call in built)


def while_tracing(api: Api, function: FuncDef | None) -> bool:
    """``function``, or a function it is defined in, is one a jit of the module compiles
    (``jitted_functions.compiled``), or one a decorator may jit where the plugin cannot tell
    (``jitted_functions.may_compile``): its code runs only while that jit traces it."""
    tree = checked_module(api)
    if tree is None or function is None:
        return False
    outer = {node: scope for node, _, scope, _ in walk(tree.defs, definitions=True) if isinstance(node, FuncDef)}
    scope: FuncDef | None = function
    while scope is not None:
        if compiled(tree, scope) or may_compile(tree, scope):
            return True
        scope = outer.get(scope)
    return False


def _differ(
    api: Api, values: Sequence[Expression], scope: FuncDef | None, inside: Sequence[Expression], site: Context
) -> bool:
    """Whether ``values`` (read in ``scope``) are computed from what a loop around ``site`` (in
    one of the expressions ``inside`` a statement) binds anew at each iteration."""
    tree = checked_module(api)
    if not values or tree is None:
        return False
    return bool(behind(values, scope, tree.defs) & per_iteration(scope, tree.defs, inside, site))


def called_again(api: Api, made: Context) -> str | None:
    """Where the module's top-level code runs the function ``made`` runs in from two places or
    more (``_top_level_calls``), making a new object each time: for a value that meets jit right
    there, where each run compiles again. Only top-level statements surely run as written, each
    once; a function's calls may all run while an outer jit traces, where a new object costs a
    trace, not a compilation."""
    _, function, _ = _placed(api, made)
    tree = checked_module(api)
    if function is None or tree is None or function in replaced_functions(tree.defs) or while_tracing(api, function):
        return None
    lines = sorted(set(_top_level_calls(api, tree, function, made, (function,))))
    return phrases.called_from(function.name, lines) if len(lines) > 1 else None


def _top_level_calls(
    api: Api, tree: MypyFile, function: FuncDef, site: Context, chain: tuple[FuncDef, ...]
) -> Iterator[int]:
    """The lines of the module's top-level calls that run ``function`` (through a jax
    transformation of it too: ``grad_f = jax.grad(solve)``), directly or from at most
    ``CALLERS_FOLLOWED`` other functions of the module (``chain``, innermost first), none of them
    one a jit compiles or a later definition replaces; not a call whose arguments keep
    ``function`` from reaching ``site`` (``reachability.skipped``), nor one that only fills a memo."""
    for call, scope, _, _ in _running_calls(api, tree, function, site):
        if scope is None:
            yield call.line
        elif scope not in chain and len(chain) <= CALLERS_FOLLOWED:
            yield from _top_level_calls(api, tree, scope, call, (*chain, scope))


def _running_calls(
    api: Api, tree: MypyFile, function: FuncDef, site: Context
) -> Iterator[tuple[CallExpr, FuncDef | None, bool, list[Expression]]]:
    """The calls of the module that run ``function`` (``_calls_function``), each with the
    function it is in (None at the top level), whether its statement runs once per iteration of
    a loop (``walk``) and the expressions of that statement. Not a call in a function a later
    definition replaces, which never runs, nor in one a jit compiles, which runs once per trace
    of its jitted caller; nor one whose arguments keep ``function`` from reaching ``site``, the
    code that makes the value (``reachability.skipped``), nor one that only fills a memo."""
    replaced = replaced_functions(tree.defs)
    runners = _runners(tree, function)
    for node, looping, scope, _ in walk(tree.defs):
        inside = get_subexpressions(node)
        for call in inside:
            if not isinstance(call, CallExpr) or not _calls_function(api, call, function, scope, runners):
                continue
            if scope in replaced or while_tracing(api, scope):
                continue
            if skipped(api, call, scope, function, site) or _cached(scope, tree, call):
                continue
            yield call, scope, looping, inside


def _traced_callers(api: Api, tree: MypyFile, function: FuncDef) -> bool:
    """The module calls ``function``, and only from functions a jit of the module compiles
    (``while_tracing``): it runs once per trace of its jitted callers, its code traced into theirs."""
    runners = _runners(tree, function)
    scopes = [
        scope
        for node, _, scope, _ in walk(tree.defs)
        for call in get_subexpressions(node)
        if isinstance(call, CallExpr) and _calls_function(api, call, function, scope, runners)
    ]
    return bool(scopes) and all(scope is not None and while_tracing(api, scope) for scope in scopes)


def copied(api: Api, made: Context, site: Site | None) -> str | None:
    """Where the module makes an equal copy of what ``made`` makes and passes it where ``site``
    passes this one (``value_origins.equal_copies``): the copies hash apart, and each compiles."""
    if site is None or not isinstance(api, CheckerPluginInterface) or not isinstance(made, Expression):
        return None
    copies = equal_copies(api, made, site)
    return phrases.copied_at(copies[0].line) if copies else None


def _called_in_loop(
    api: Api,
    function: FuncDef,
    site: Context,
    inner: tuple[str, ...] = (),
    shaping: Sequence[Expression] = (),
    eager: bool = False,
) -> str | None:
    """Where a loop of the module calls ``function``, directly or through at most
    ``CALLERS_FOLLOWED`` other functions of the module (``phrases.repeatedly``, naming ``inner``,
    the functions ``function`` runs the code in, innermost first), else None; not a loop inside a
    function a jit compiles, which runs while it traces, nor one in a function a later definition
    replaces, which never runs (nor are the calls of a replaced one's name its calls). A call is no
    evidence where what it gives keeps ``function`` from reaching ``site``, the code that makes the
    value (``reachability.skipped``: ``include_hessian=False`` and ``if not include_hessian:
    return``), nor where what it passes for the parameters the ``shaping`` values (read in
    ``function``) are computed from differs at each iteration, or cannot be read, nor where the
    loop keeps its result for the iterations that do not call it (``_kept_across_iterations``).
    ``eager``: only a loop of the module's top-level code (``repeated``)."""
    tree = checked_module(api)
    if tree is None:
        return None
    if function in replaced_functions(tree.defs) or _memoised(tree, function):
        return None
    chain = (*inner, function.name)
    found = bound_behind(shaping, function, tree.defs)
    parameters = set(found) & {argument.variable for argument in function.arguments}
    method = takes_self(function)
    attributes = read_attributes(shaping, function, found) if shaping and method else set()
    for call, scope, looping, inside in _running_calls(api, tree, function, site):
        given = given_for(call, function, parameters) if parameters else []
        if given is None:
            continue
        if each_iteration(looping, inside, call) and not (eager and scope is not None):
            if _differ(api, given, scope, inside, call) or _kept_across_iterations(scope, tree, call):
                continue
            if _changed_receiver(call, scope, tree, attributes):
                continue
            return phrases.repeatedly(call.line, chain)
        if scope is None or scope is function or len(chain) > CALLERS_FOLLOWED:
            continue
        outer = _called_in_loop(api, scope, call, chain, given, eager)
        if outer is not None:
            return outer
    return None


def _memoised(tree: MypyFile, function: FuncDef) -> bool:
    """``function`` is decorated with ``functools.lru_cache`` (or ``cache``, ``cached_property``):
    a call with the arguments of an earlier one returns that call's object, not a new one."""
    decorated = decorated_definition(tree, function)
    decorators = decorated.original_decorators if decorated is not None else []
    return any(decorator_fullname(decorator) in MEMOISERS for decorator in decorators)


def _changed_receiver(call: CallExpr, scope: FuncDef | None, tree: MypyFile, attributes: Collection[str]) -> bool:
    """The loop around ``call`` (``obj.method(...)``) assigns one of the ``attributes`` of ``obj``
    that what the method makes is computed from: each call is given another object, as another
    argument would be."""
    callee = call.callee
    receiver = callee.expr.node if isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr) else None
    if not attributes or not isinstance(receiver, Var):
        return False
    return bool(set(attributes) & changed_per_iteration(scope, tree.defs, call, receiver))


def _calls_function(
    api: Api, call: CallExpr, function: FuncDef, scope: FuncDef | None, runners: Collection[Var]
) -> bool:
    """``call`` (in ``scope``) calls ``function``: by its name or through one of its ``runners``
    (``_runners``), or, for a method, on ``self`` in a method of its class or on a name the
    module binds to an instance of its class; a call of a class runs its construction
    (``__init__``, ``__post_init__``), its bases' too; ``jax.tree_util.tree_map(function, tree)``
    runs the function it is given (``names.TREE_MAPS``)."""
    callee = call.callee
    if isinstance(callee, CallExpr) and _runs_its_argument(callee):  # jax.vmap(f)(x) runs f
        return _runs(callee.args[0], function, runners)
    if isinstance(callee, RefExpr) and callee.fullname in TREE_MAPS and call.args:  # tree_map(f, tree) runs f
        return _runs(call.args[0], function, runners)
    if isinstance(callee, NameExpr) and isinstance(callee.node, Var):
        return callee.node in runners
    if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):  # Class(...) runs its construction
        return function.name in CONSTRUCTION and function.info is not None and function.info in callee.node.mro
    if isinstance(callee, NameExpr):
        node = callee.node
        return node is function or definition(node) is function or _hands_on(api, call, function, definition(node))
    if not isinstance(callee, MemberExpr) or callee.name != function.name or function.info is None:
        return False
    if is_name(callee.expr, "self"):
        owner = defining_class(scope) if scope is not None else None
        return owner is not None and _resolves_to(owner, function)
    made = made_classes(api, callee.expr, call.line, scope)
    return made is not None and any(_resolves_to(info, function) for info in made)


def _resolves_to(info: TypeInfo, function: FuncDef) -> bool:
    """A method of ``info``'s instances named as ``function`` is ``function``: its class's own or
    inherited, not overridden (``self.setup()`` in a subclass that defines another ``setup``)."""
    symbol = info.get(function.name) if function.info in info.mro else None
    return symbol is not None and definition(symbol.node) is function


def _hands_on(api: Api, call: CallExpr, function: FuncDef, receiver: FuncDef | None) -> bool:
    """``call`` gives ``function``, by name, to ``receiver``, a function of the module whose body
    calls the parameter it takes it as (``run(solve, model)``, ``def run(algorithm, model):
    algorithm(model)``)."""
    tree = checked_module(api)
    if receiver is None or tree is None or not receiver.fullname.startswith(f"{tree.fullname}."):
        return False
    names = [argument.variable.name for argument in receiver.arguments]
    for index, (kind, name, given) in enumerate(zip(call.arg_kinds, call.arg_names, call.args)):
        if kind.is_star() or not isinstance(given, NameExpr) or definition(given.node) is not function:
            continue
        parameter = name if kind == ARG_NAMED else names[index] if index < len(names) else None
        if parameter is not None and any(is_name(inner.callee, parameter) for inner in calls([receiver.body])):
            return True
    return False


def _runners(tree: MypyFile, function: FuncDef) -> set[Var]:
    """The variables the module binds to a jax transformation of ``function``, or a
    ``functools.partial`` of it, which run it when called (``grad_f = jax.grad(solve)``,
    ``step = partial(solve, model=m)``), also of another such variable."""
    found: set[Var] = set()
    bindings = [
        (node.lvalues, value)
        for node, *_ in walk(tree.defs)
        if isinstance(node, AssignmentStmt) and isinstance(value := node.rvalue, CallExpr) and _runs_its_argument(value)
    ]
    size = -1
    while size != len(found):
        size = len(found)
        for lvalues, value in bindings:
            if _runs(value.args[0], function, found):
                found.update(
                    lvalue.node for lvalue in lvalues if isinstance(lvalue, NameExpr) and isinstance(lvalue.node, Var)
                )
    return found


def _runs_its_argument(call: CallExpr) -> bool:
    """``call`` makes a function that runs its first argument when called: a jax transformation
    (``jax.vmap(f)``) or ``functools.partial(f, ...)``."""
    callee = call.callee
    return bool(call.args) and isinstance(callee, RefExpr) and (callee.fullname == PARTIAL or makes_function(callee))


def _runs(expr: Expression, function: FuncDef, runners: Collection[Var]) -> bool:
    """``expr`` names ``function``, or one of its ``runners``."""
    if not isinstance(expr, RefExpr):
        return False
    return definition(expr.node) is function or isinstance(expr.node, Var) and expr.node in runners


def _left_behind(scope: FuncDef | None, tree: MypyFile, made: Context, used: Context) -> bool:
    """Loops of ``scope`` (or of the module's top level) run ``made`` but none of them runs
    ``used`` as well: what the last iteration made meets jit once, after the loop
    (``f = jax.vmap(f, in_axes=...)`` per swept argument, then one ``jax.jit(f)``)."""
    runs_made = runs_both = False
    for loop in loops(scope, tree):
        ran = ran_by([loop.body])
        runs_made = runs_made or id(made) in ran
        runs_both = runs_both or id(made) in ran and id(used) in ran
    return runs_made and not runs_both


def _kept_across_iterations(scope: FuncDef | None, tree: MypyFile, made: Context) -> bool:
    """What ``made`` makes (in ``scope``, or at the module's top level) is bound to a name only on
    some iterations of a loop, inside an ``if`` of its body, and the loop reads that name outside
    that branch: the other iterations call the one made before (a jitted solve remade only where
    its preconditioner is rebuilt)."""
    for loop in loops(scope, tree):
        checks = [node for block in blocks([loop.body]) for node in block.body if isinstance(node, IfStmt)]
        for branch in (branch for check in checks for branch in [*check.body, *present([check.else_body])]):
            steps = [node for node, *_ in walk([branch])]
            names = {
                lvalue.name
                for node in steps
                if isinstance(node, AssignmentStmt) and node.rvalue is made
                for lvalue in node.lvalues
                if isinstance(lvalue, NameExpr)
            }
            inside = {id(node) for node in steps}
            if names and any(
                isinstance(expr, NameExpr) and expr.name in names
                for node, *_ in walk([loop.body])
                if id(node) not in inside
                for expr in get_subexpressions(node)
            ):
                return True
    return False


def _cached(scope: FuncDef | None, tree: MypyFile, made: Context) -> bool:
    """What ``made`` makes is kept for later runs: ``made`` runs only where a place is empty, in
    the branch of an ``if`` that tests so (``if key not in cache:``, ``if fn is None:`` after ``fn =
    cache.get(key)``, ``if not self._fn:``) or after one that leaves where it is full (``if key in
    cache: return cache[key]``), and the code there stores it in that place, an item or an
    attribute (``cache[key] = fn``, ``self._fn = fn``), itself or through a name bound to it, or
    what it computes there (``_filled_places``): the runs after the first find it there (a
    hand-written memo, as ``functools.cache`` is one)."""
    for block in code_blocks(scope, tree):
        for index, check in enumerate(block.body):
            if not isinstance(check, IfStmt) or len(check.expr) != 1:
                continue
            empty, place, stale = _tested_place(check.expr[0], block.body[:index])
            if place is None:
                continue
            if empty:
                guarded: Sequence[Node] = check.body[:1]
            elif check.else_body is None and _leaves(check.body[0]):
                guarded = block.body[index + 1 :]
            else:
                continue
            filled = _stored_places(guarded, made) | (_filled_places(guarded) if id(made) in ran_by(guarded) else set())
            if place in filled and (stale is None or _refreshed(stale, guarded)):
                return True
    return False


def _filled_places(nodes: Sequence[Node]) -> set[str]:
    """The places (``_place``), items or attributes, the statements ``nodes`` assign anything to:
    code that fills the place its memo tests runs once per place, whatever it makes on the way
    (``data, pullback = jax.jit(f)(p)`` before ``self._vjp = (data, pullback)``)."""
    return {
        place
        for step, *_ in walk(nodes)
        if isinstance(step, AssignmentStmt)
        for lvalue in assignment_targets(step.lvalues)
        if isinstance(lvalue, (IndexExpr, MemberExpr)) and (place := _place(lvalue)) is not None
    }


def _refreshed(stale: ComparisonExpr, guarded: Sequence[Node]) -> bool:
    """A memo of one entry, tested stale by ``cache["gen"] != generation``, is one only where the
    code that refills it (``guarded``) also records the value it was filled for
    (``cache["gen"] = generation``)."""
    recorded, value = (literal_hash(operand) for operand in stale.operands)
    return recorded is not None and any(
        literal_hash(node.rvalue) == value and any(literal_hash(lvalue) == recorded for lvalue in node.lvalues)
        for node, *_ in walk(guarded)
        if isinstance(node, AssignmentStmt)
    )


def _tested_place(test: Expression, before: Sequence[Node]) -> tuple[bool, str | None, ComparisonExpr | None]:
    """Whether ``test`` holds where a place is empty (``x is None``, ``key not in cache``, ``not
    x``, or filled for another value: ``cache["gen"] != generation``) or where it is full (``x is
    not None``, ``key in cache``, ``x``), and that place
    (``_place``); a name tested for None or truth is the place it was looked up in by the
    statements ``before`` (``fn = cache.get(key)``), one tested for a key is itself (``entry =
    cache.get(k)`` then ``if slot not in entry: entry[slot] = ...``), None where ``test`` tests
    no place; and ``test`` itself where it
    tests the place filled for another value, which the code that refills it must record."""
    empty = isinstance(test, UnaryExpr) and test.op == "not"
    tested: Expression | None = test.expr if empty and isinstance(test, UnaryExpr) else test
    stale = None
    membership = False
    if isinstance(test, ComparisonExpr) and len(test.operators) == 1:
        operator, (left, right) = test.operators[0], test.operands
        if operator in ("in", "not in"):
            empty, tested, membership = operator == "not in", right, True
        elif operator in ("is", "is not", "==", "!=") and is_name(right, "None"):
            empty, tested = operator in ("is", "=="), left
        elif operator == "!=" and isinstance(left, (IndexExpr, MemberExpr)):  # filled for another value
            empty, tested, stale = True, left, test
        else:
            tested = None
    if isinstance(tested, NameExpr) and not membership:  # ``key in d`` tests d, where it stores
        lookups = [
            node.rvalue
            for node in before
            if isinstance(node, AssignmentStmt) and any(is_name(lvalue, tested.name) for lvalue in node.lvalues)
        ]
        if lookups and _place(lookups[-1]) is not None:
            tested = lookups[-1]
    return empty, _place(tested) if tested is not None else None, stale


def _place(expr: Expression) -> str | None:
    """Where ``expr`` reads: a name, an attribute (``self._fn``, also looked up by its name:
    ``getattr(self, "_fn", None)``, ``hasattr(self, "_fn")``, ``self.__dict__.get("_fn")``), the
    container an item or a ``get`` is looked up in (``cache[key]``, ``cache.get(key)``), spelled;
    None otherwise."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        owner = _place(expr.expr)
        return f"{owner}.{expr.name}" if owner is not None else None
    by_name = _looked_up_by_name(expr)
    if by_name is not None:
        owner = _place(by_name[0])
        return f"{owner}.{by_name[1]}" if owner is not None else None
    if isinstance(expr, IndexExpr):
        return _place(expr.base)
    if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "get":
        return _place(expr.callee.expr)
    return None


def _looked_up_by_name(expr: Expression) -> tuple[Expression, str] | None:
    """The object and the attribute ``getattr(obj, "name", ...)``, ``hasattr(obj, "name")``,
    ``obj.__dict__.get("name")`` or ``obj.__dict__["name"]`` looks up."""
    if isinstance(expr, IndexExpr) and isinstance(expr.index, StrExpr) and (owner := _dict_of(expr.base)):
        return owner, expr.index.value
    if not isinstance(expr, CallExpr):
        return None
    if isinstance(expr.callee, MemberExpr) and expr.callee.name == "get" and (owner := _dict_of(expr.callee.expr)):
        name = expr.args[0] if expr.args else None
        return (owner, name.value) if isinstance(name, StrExpr) else None
    if not (is_name(expr.callee, "getattr") or is_name(expr.callee, "hasattr")):
        return None
    name = expr.args[1] if len(expr.args) >= 2 else None
    return (expr.args[0], name.value) if isinstance(name, StrExpr) else None


def _dict_of(expr: Expression) -> Expression | None:
    """The object whose attributes ``expr`` holds: ``obj`` of ``obj.__dict__``."""
    return expr.expr if isinstance(expr, MemberExpr) and expr.name == "__dict__" else None


def _stored_places(nodes: Sequence[Node], made: Context) -> set[str]:
    """The places (``_place``) where the statements ``nodes`` store what ``made`` makes, itself,
    through a name bound to it, or wrapped by the call that stores it (``self._kernel =
    jax.jit(kernel)`` of a local ``def kernel``): a container's item or an attribute."""
    assignments = [node for node, *_ in walk(nodes) if isinstance(node, AssignmentStmt)]
    bound = {
        lvalue.name
        for step in assignments
        if step.rvalue is made
        for lvalue in step.lvalues
        if isinstance(lvalue, NameExpr)
    }

    def holds(value: Expression) -> bool:
        if value is made or (isinstance(value, NameExpr) and (value.name in bound or value.node is made)):
            return True
        return isinstance(value, CallExpr) and any(holds(argument) for argument in value.args[:1])

    return {
        place
        for step in assignments
        if holds(step.rvalue)
        for lvalue in step.lvalues
        if isinstance(lvalue, (IndexExpr, MemberExpr)) and (place := _place(lvalue)) is not None
    }


def _leaves(block: Block) -> bool:
    """``block`` ends by leaving the code after it: a ``return``, ``raise``, ``continue`` or ``break``."""
    return bool(block.body) and isinstance(block.body[-1], (ReturnStmt, RaiseStmt, ContinueStmt, BreakStmt))
