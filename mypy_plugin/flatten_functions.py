"""Hand-written flattening: the attributes a flatten function returns as aux data.

A class registered with ``register_pytree_node(Cls, flatten, unflatten)`` (or
``register_pytree_with_keys``), or decorated ``register_pytree_node_class`` with a
``tree_flatten`` method, says in its flatten function which attributes are children (traced)
and which are aux data (pytree metadata: compared with ``==`` and hashed on every jit call).
The aux attributes are then static fields like any library's (``library_fields``), judged by
their declared types and, where an attribute has none, by what constructors are given.

Read from the syntax tree of the flatten function: ``return children, aux`` where ``aux`` is an
attribute of the first parameter (``self.x``, ``node.x``), a tuple or list of them, or a local
name assigned one of those.
"""

from __future__ import annotations

from mypy.nodes import (
    AssignmentStmt,
    Block,
    Expression,
    FuncItem,
    ListExpr,
    MemberExpr,
    NameExpr,
    TupleExpr,
)

from mypy_plugin.mypy_internals import returned_values


def aux_attributes(flatten: FuncItem) -> list[str]:
    """The attributes of the flattened object that ``flatten`` returns in its aux data, in order."""
    if not flatten.arguments:
        return []
    this = flatten.arguments[0].variable.name
    found: list[str] = []
    for returned in returned_values(flatten):
        if not isinstance(returned, TupleExpr) or len(returned.items) != 2:
            continue
        aux = _local_value(returned.items[1], flatten.body)
        items = aux.items if isinstance(aux, (TupleExpr, ListExpr)) else [aux]
        for item in items:
            if isinstance(item, MemberExpr) and isinstance(item.expr, NameExpr) and item.expr.name == this:
                found += [] if item.name in found else [item.name]
    return found


def _local_value(expr: Expression, body: Block) -> Expression:
    """What a local name was last assigned in ``body`` (its own statements), else ``expr``."""
    if not isinstance(expr, NameExpr):
        return expr
    value = expr
    for stmt in body.body:
        if isinstance(stmt, AssignmentStmt) and any(
            isinstance(lvalue, NameExpr) and lvalue.name == expr.name for lvalue in stmt.lvalues
        ):
            value = stmt.rvalue
    return value
