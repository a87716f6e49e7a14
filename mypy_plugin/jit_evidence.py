"""Evidence that plain ``jax.jit(obj.method)`` goes wrong, so that correct code is left alone.

``jax.jit(env.reset)`` on an object that is built, jitted and never changed is how real code
(brax's own documentation) uses jit; it is a bug only when there is evidence that

- the object changes after it was jitted (stale results): its class or a base assigns an
  instance attribute outside construction (``__init__``, ``__post_init__``, ``__new__``,
  ``__setstate__``) or defines ``__setattr__``, or code in the module being checked assigns an
  attribute of that object (``c.mul = False``) or of a variable that may hold it (a parameter
  typed as the class), not of another object made in the module;
- the jitted wrapper is made again and again, inside a loop or comprehension body: every
  ``obj.method`` is a new bound-method object, so each iteration traces and compiles again.

A method jitted with ``self`` static (``static_argnums=0``, ``static_argnames="self"``) of a class
that hashes by identity goes wrong on the same evidence (``static_self_evidence``), or where
instances are built afresh in a loop (each compiles again); without any, a class built once and
never changed is used correctly, arrays among its attributes included (compiled in as constants,
which is right for values that never change; evosax and gymnax jit their algorithms so).

What a class does to its instances is read from its methods when the class is analysed and kept
as a record (``metadata.ChangeEvidence``), so it reaches other modules through the cache, parallel workers and
the daemon. The module being checked is always at hand, so its assignments and loops are read
from its syntax tree.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IfStmt,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    StrExpr,
    TryStmt,
    TupleExpr,
    TypeInfo,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import CheckerPluginInterface, ClassDefContext
from mypy.types import Instance, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name
from mypy_plugin.metadata import ChangeEvidence
from mypy_plugin.method_bodies import instance_methods
from mypy_plugin.mypy_internals import checked_module, get_subexpressions

N = TypeVar("N", bound=Node)

CONSTRUCTION = frozenset({"__init__", "__post_init__", "__new__", "__setstate__"})
"""Methods that set attributes while an instance is being made, not after."""


def record_class_mutation(ctx: ClassDefContext) -> None:
    """Note in the class's metadata how its own methods change its instances, if they do."""
    info = ctx.cls.info
    ChangeEvidence.erase(info)
    evidence = _own_mutation(ctx.cls)
    if evidence is not None:
        ChangeEvidence(evidence).write(info)


def _own_mutation(defn: ClassDef) -> str | None:
    for method in instance_methods(defn):
        if method.name == "__setattr__" and defn.fullname != "builtins.object":
            return phrases.defines_setattr(class_name(defn.info))
        if method.name in CONSTRUCTION or not method.arguments:
            continue
        is_self = functools.partial(_is_name, name=method.arguments[0].variable.name)
        write = _first_write([method.body], is_self)
        if write is not None:
            return phrases.method_assigns(class_name(defn.info), method.name, write[0])
    return None


def _is_name(expr: Expression, name: str) -> bool:
    return isinstance(expr, NameExpr) and expr.name == name


def bound_method_evidence(
    api: CheckerPluginInterface, obj: Expression, info: TypeInfo, call: Context
) -> Problem | None:
    """``jit-bound-method`` for ``jax.jit(obj.method)`` (``call``), with ``obj`` an instance of
    ``info``, saying why it goes wrong; None without evidence that it does."""
    change = changes_after_construction(api, obj, info)
    if change is not None:
        return phrases.jitted_mutable_object(class_name(info), change)
    if in_loop(api, call):
        return phrases.JITTED_IN_LOOP
    return None


def static_self_evidence(api: CheckerPluginInterface, info: TypeInfo) -> str | None:
    """Why a static ``self`` of ``info``, which hashes by identity, goes wrong: its instances
    change after they are made, or are built inside a loop; None without evidence."""
    return changes_after_construction(api, None, info) or _built_per_iteration(api, info)


def _built_per_iteration(api: CheckerPluginInterface, info: TypeInfo) -> str | None:
    """``Class(...)`` called once per iteration of a loop or comprehension in the module being
    checked (equal instances made again, which hash apart)."""
    tree = checked_module(api)
    for node, looping in _walk(tree.defs if tree is not None else [], looping=False):
        for expr in get_subexpressions(node):
            if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.node is info:
                if looping or any(_per_iteration(outer, expr) for outer in get_subexpressions(node)):
                    return phrases.built_per_iteration(class_name(info), expr.line)
    return None


def changes_after_construction(api: CheckerPluginInterface, obj: Expression | None, info: TypeInfo) -> str | None:
    """How ``obj``, an instance of ``info``, changes after it was made (``class_mutation``,
    then ``module_mutation``), or None; the classes consulted become dependencies."""
    judge = recorder(api)
    for base in info.mro:
        judge.looked_through(base)
    return class_mutation(info, judge) or module_mutation(api, obj, info)


def class_mutation(info: TypeInfo, judge: Judge) -> str | None:
    """How instances of ``info`` change after construction, as recorded for it or a base; not
    what a trusted library class records of itself (the ``__setattr__`` of a flax or equinox
    module guards its fields and names its submodules: it is no evidence that instances change)."""
    for base in info.mro:
        found = ChangeEvidence.read(base)
        if found is not None and not (judge.trusts(base) or judge.hashes_fields(base)):
            return found.evidence
    return None


def module_mutation(api: CheckerPluginInterface, obj: Expression | None, info: TypeInfo) -> str | None:
    """An assignment, in the module being checked, to an attribute of ``obj`` (``c.mul = False`` at
    line 21) or of a variable that may hold it: one declared as an instance of ``info`` (a
    parameter, an attribute), not one made another instance by ``x = Class(...)``. Without
    ``obj`` (a static ``self``: which instance is not known) any instance counts, those made by
    ``x = Class(...)`` too (the checker may not have reached that line yet)."""
    tree = checked_module(api)
    if tree is None:
        return None
    same = obj.node if isinstance(obj, RefExpr) and isinstance(obj.node, Var) else None
    built = _built_as(tree.defs)

    def targets(expr: Expression) -> bool:
        if not isinstance(expr, RefExpr) or not isinstance(expr.node, Var) or expr.node.is_self:
            return False  # writes through self are the class's own (class_mutation)
        declared = get_proper_type(expr.node.type) if expr.node.type is not None else None
        if expr.node is same:
            return True
        if obj is not None and expr.node in built:
            return False  # another object the module made
        cls = declared.type if isinstance(declared, Instance) else built.get(expr.node)
        return cls is not None and info in cls.mro

    write = _first_write(tree.defs, targets)
    if write is None:
        return None
    attribute, target, line = write
    return phrases.assigned_at(target, attribute, line)


def _built_as(nodes: Sequence[Node]) -> dict[Var, TypeInfo]:
    """The variables assigned an instance of a class by calling it (``obj = MyClass()``)."""
    built = {}
    for node, _ in _walk(nodes, looping=False):
        if isinstance(node, AssignmentStmt) and isinstance(node.rvalue, CallExpr):
            callee = node.rvalue.callee
            if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):
                built |= {
                    lvalue.node: callee.node
                    for lvalue in node.lvalues
                    if isinstance(lvalue, RefExpr) and isinstance(lvalue.node, Var)
                }
    return built


def _first_write(nodes: Sequence[Node], targets: Callable[[Expression], bool]) -> tuple[str, str, int] | None:
    """The first ``x.attr = ...``, ``x.attr += ...``, ``del x.attr`` or ``setattr(x, ...)`` below
    ``nodes`` whose ``x`` satisfies ``targets``: (attribute, x as written, line)."""
    for node, _ in _walk(nodes, looping=False):
        for target, attribute, line in _writes(node):
            if targets(target):
                return attribute, _spelled(target), line
    return None


def _writes(node: Node) -> list[tuple[Expression, str, int]]:
    """The attributes a simple statement writes: (object, attribute name, line)."""
    if isinstance(node, ExpressionStmt) and isinstance(node.expr, CallExpr):
        written = _setattr_arguments(node.expr)
        if written is None:
            return []
        target, name = written
        return [(target, name.value if isinstance(name, StrExpr) else "<name>", node.line)]
    if isinstance(node, AssignmentStmt):
        lvalues: list[Expression] = node.lvalues
    elif isinstance(node, OperatorAssignmentStmt):
        lvalues = [node.lvalue]
    elif isinstance(node, DelStmt):
        lvalues = [node.expr]
    else:
        return []
    return [(member.expr, member.name, member.line) for member in _attributes(lvalues)]


def _attributes(lvalues: Sequence[Expression]) -> list[MemberExpr]:
    """The ``x.attr`` among assignment targets, inside tuples and lists too."""
    found: list[MemberExpr] = []
    for lvalue in lvalues:
        if isinstance(lvalue, (TupleExpr, ListExpr)):
            found += _attributes(lvalue.items)
        elif isinstance(lvalue, MemberExpr):
            found.append(lvalue)
    return found


def _setattr_arguments(call: CallExpr) -> tuple[Expression, Expression] | None:
    """The object and attribute name of ``setattr(x, name, v)``, ``object.__setattr__(x, name, v)``
    or ``x.__setattr__(name, v)``."""
    callee, args = call.callee, call.args
    if isinstance(callee, MemberExpr) and callee.name == "__setattr__":
        return (args[0], args[1]) if len(args) == 3 else (callee.expr, args[0]) if len(args) == 2 else None
    if isinstance(callee, NameExpr) and callee.name == "setattr" and len(args) == 3:
        return args[0], args[1]
    return None


def _spelled(expr: Expression) -> str:
    if isinstance(expr, MemberExpr):
        return f"{_spelled(expr.expr)}.{expr.name}"
    return expr.name if isinstance(expr, NameExpr) else "an instance"


def in_loop(api: CheckerPluginInterface, call: Context) -> bool:
    """Whether ``call`` runs once per iteration of a loop or comprehension in its own function."""
    tree = checked_module(api)
    for node, looping in _walk(tree.defs if tree is not None else [], looping=False):
        inside = get_subexpressions(node)
        if any(expr is call for expr in inside):
            return looping or any(_per_iteration(expr, call) for expr in inside)
    return False


def _per_iteration(expr: Expression, call: Context) -> bool:
    """Whether ``call`` is in the part of comprehension ``expr`` evaluated for every item."""
    if isinstance(expr, GeneratorExpr):
        parts: list[Expression] = [expr.left_expr, *expr.sequences[1:], *(c for cs in expr.condlists for c in cs)]
    elif isinstance(expr, DictionaryComprehension):
        parts = [*_present([expr.key]), expr.value, *expr.sequences[1:], *(c for cs in expr.condlists for c in cs)]
    else:
        return False
    return any(inner is call for part in parts for inner in get_subexpressions(part))


def _walk(nodes: Sequence[Node], looping: bool) -> Iterator[tuple[Node, bool]]:
    """Every simple statement below ``nodes``, and every expression of a compound statement,
    with whether it runs once per iteration of a loop (a function body starts afresh)."""
    for node in nodes:
        if isinstance(node, Block):
            yield from _walk(node.body, looping)
        elif isinstance(node, FuncDef):
            yield from _walk([node.body], looping=False)
        elif isinstance(node, Decorator):
            yield from _walk([*node.decorators, node.func], looping)
        elif isinstance(node, OverloadedFuncDef):
            yield from _walk([*node.items, *_present([node.impl])], looping)
        elif isinstance(node, ClassDef):
            yield from _walk([*node.decorators, node.defs], looping)
        elif isinstance(node, ForStmt):
            yield from _walk([node.expr, *_present([node.else_body])], looping)
            yield from _walk([node.body], looping=True)
        elif isinstance(node, WhileStmt):
            yield from _walk([node.expr, node.body], looping=True)
            yield from _walk(_present([node.else_body]), looping)
        elif isinstance(node, IfStmt):
            yield from _walk([*node.expr, *node.body, *_present([node.else_body])], looping)
        elif isinstance(node, WithStmt):
            yield from _walk([*node.expr, *_present(node.target), node.body], looping)
        elif isinstance(node, TryStmt):
            parts = [node.body, *_present(node.types), *node.handlers, node.else_body, node.finally_body]
            yield from _walk(_present(parts), looping)
        elif isinstance(node, MatchStmt):
            yield from _walk([node.subject, *_present(node.guards), *node.bodies], looping)
        else:
            yield node, looping


def _present(nodes: Sequence[N | None]) -> list[N]:
    return [node for node in nodes if node is not None]
