"""Where the module hands an instance of a class to jit, which flattens it and compares its pytree
metadata with ``==`` to find compiled code: the evidence that an array in that metadata fails
(two instances whose arrays are distinct objects meet there, and a shaped array's ``==`` has no
truth value).

An instance is handed to jit where it is an argument of a jitted function's call (a ``def``
under ``@jax.jit`` or ``@eqx.filter_jit``, a name bound to ``jax.jit(f)``, ``jax.jit(f)(x)``),
where a jitted function of the module takes a parameter declared as the class, or where a method
of the class is jitted (its ``self`` is flattened, or hashed where static); ``tree_flatten`` and
``tree_structure`` hand out the structure itself, to be compared. An instance is recognised as
``jit_evidence`` recognises one: a call of the class, or a variable assigned one or declared as
one.

The module's syntax tree is read with unbound names resolved through its symbol table
(``jitted_functions.resolved_fullname``), so the verdict is the same before and after the
analyser binds a later statement (a base class's hook runs before it does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mypy.nodes import (
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    MemberExpr,
    MypyFile,
    NameExpr,
    TypeInfo,
)
from mypy.types import Instance, Type, UnboundType, UnionType

from jaxtypes._vocabulary.names import TREE_STRUCTURE_FUNCTIONS
from mypy_plugin.jitted_functions import COMPILING_JITS, is_jit, resolved_fullname
from mypy_plugin.statements import calls, walk


def flattening_site(tree: MypyFile, info: TypeInfo, instances: Callable[[Expression], bool]) -> tuple[str, int] | None:
    """What in ``tree`` flattens an instance of ``info`` (``instances`` tells one), and at which
    line; None where the module shows none."""
    functions = list(_jitted_functions(tree))
    jitted = _jitted_names(tree, functions)
    for call in calls(tree.defs):
        callee = call.callee
        flattens = is_jit(tree, callee.callee, COMPILING_JITS) if isinstance(callee, CallExpr) else False
        flattens = flattens or (isinstance(callee, NameExpr) and callee.name in jitted)
        structure = resolved_fullname(tree, callee) in TREE_STRUCTURE_FUNCTIONS
        if (flattens or structure) and any(instances(arg) for arg in call.args[: 1 if structure else None]):
            return _written(callee), call.line
    for function in functions:
        if function.info and _derives(function.info, info):
            return function.name, function.line
        declared = [argument.type_annotation for argument in function.arguments]
        if any(_names_class(typ, info) for typ in declared if typ is not None):
            return function.name, function.line
    return None


def _names_class(typ: Type, info: TypeInfo) -> bool:
    """A parameter's annotation names ``info`` (or a subclass), by its name where not analysed."""
    if isinstance(typ, UnboundType):
        return typ.name.rsplit(".", 1)[-1] == info.name or any(_names_class(arg, info) for arg in typ.args)
    if isinstance(typ, Instance):
        return _derives(typ.type, info)
    return isinstance(typ, UnionType) and any(_names_class(item, info) for item in typ.items)


def _derives(cls: TypeInfo, info: TypeInfo) -> bool:
    """``cls`` is ``info`` or derives from it, by its bases (its MRO may not be computed yet)."""
    return cls is info or any(_derives(base.type, info) for base in cls.bases)


def _jitted_functions(tree: MypyFile) -> Iterator[FuncDef]:
    """The ``def``s a jit decorates, or that a call of one names."""
    named = {
        arg.name
        for call in calls(tree.defs)
        if is_jit(tree, call.callee, COMPILING_JITS)
        for arg in call.args[:1]
        if isinstance(arg, NameExpr)
    }
    for node, *_ in walk(tree.defs, definitions=True):
        if isinstance(node, Decorator) and any(is_jit(tree, d, COMPILING_JITS) for d in node.original_decorators):
            yield node.func
        elif isinstance(node, FuncDef) and node.name in named:
            yield node


def _jitted_names(tree: MypyFile, functions: list[FuncDef]) -> set[str]:
    """The names the module binds to jitted functions: the jitted ``functions``, and variables
    assigned a jit's call (``f = jax.jit(g)``)."""
    names = {function.name for function in functions}
    for node, *_ in walk(tree.defs):
        rvalue = getattr(node, "rvalue", None)
        if isinstance(rvalue, CallExpr) and is_jit(tree, rvalue.callee, COMPILING_JITS):
            names |= {lvalue.name for lvalue in getattr(node, "lvalues", []) if isinstance(lvalue, NameExpr)}
    return names


def _written(expr: Expression) -> str:
    """How a callee is written, briefly: ``f``, ``jax.jit(...)``."""
    if isinstance(expr, CallExpr):
        return f"{_written(expr.callee)}(...)"
    if isinstance(expr, MemberExpr):
        return f"{_written(expr.expr)}.{expr.name}"
    return expr.name if isinstance(expr, NameExpr) else "a call"
