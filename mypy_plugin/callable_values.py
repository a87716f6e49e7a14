"""Recognising callables that are no static values: ``obj.method``, lambdas, local functions.

Mirrors ``jaxtypes.values._callable_key``: a method bound to an instance is rejected
(``static-bound-method``), and so is a lambda or a function defined inside a function
(``static-fresh-callable``); ``Class.method``, class methods, static methods and module-level
functions are fine.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import LDEF, Decorator, Expression, FuncBase, FuncDef, LambdaExpr, MemberExpr, NameExpr, OverloadedFuncDef, TypeInfo
from mypy.types import Instance, Type, get_proper_type

from jaxtypes.rules import STATIC_BOUND_METHOD, STATIC_FRESH_CALLABLE
from mypy_plugin.type_rules import Finding


def bound_method_owner(expr: Expression, owner_type: Type | None) -> TypeInfo | None:
    """The class of ``obj`` if ``expr`` is ``obj.method`` bound to an instance (``owner_type``
    is the type of ``obj``)."""
    if not isinstance(expr, MemberExpr) or owner_type is None:
        return None
    owner = get_proper_type(owner_type)
    if not isinstance(owner, Instance):
        return None
    symbol = owner.type.get(expr.name)
    return owner.type if symbol is not None and is_instance_method(symbol.node) else None


def bound_method_finding(expr: Expression, owner_type: Type | None) -> Finding | None:
    """The finding for ``expr`` if it is ``obj.method`` and ``owner_type`` (obj's type) an instance."""
    owner = bound_method_owner(expr, owner_type)
    if owner is None or not isinstance(expr, MemberExpr):
        return None
    name = f"{owner.name}.{expr.name}"
    return Finding(
        STATIC_BOUND_METHOD,
        f"holds the bound method {name} (bound to a {owner.name} instance)",
        fix=f"store the function {name} and pass the instance separately",
    )


def is_instance_method(node: object) -> bool:
    if isinstance(node, Decorator):
        return not node.func.is_property and is_instance_method(node.func)
    if isinstance(node, OverloadedFuncDef):
        return bool(node.items) and is_instance_method(node.items[0])
    return isinstance(node, FuncDef) and not (node.is_static or node.is_class)


def fresh_callable_finding(expr: Expression, module: str, enclosing: Sequence[FuncBase]) -> Finding | None:
    """The finding for a lambda, or for a function defined in the innermost of ``enclosing``
    (the functions around the expression, outermost first, in ``module``)."""
    if isinstance(expr, LambdaExpr):
        return Finding(STATIC_FRESH_CALLABLE, "holds a lambda")
    if not isinstance(expr, NameExpr) or expr.kind != LDEF or not isinstance(expr.node, (FuncDef, Decorator)):
        return None
    if not enclosing:
        return None
    outermost = enclosing[0].fullname.removeprefix(f"{module}.")
    qualname = ".<locals>.".join([outermost, *(function.name for function in enclosing[1:]), expr.name])
    return Finding(STATIC_FRESH_CALLABLE, f"holds the local function {qualname}")
