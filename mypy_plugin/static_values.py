"""Recognising callables that are no static values: ``obj.method``, lambdas, local functions.

Mirrors ``jaxtypes._classes.static_values._callable_key``: a method bound to an instance that is no static value
is rejected (``static-bound-method``), and so is a lambda, a function defined inside a function
or one ``jax.jit`` returns (``static-fresh-callable``); ``Class.method``, class methods, static
methods, module-level functions and methods bound to static values are fine.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import (
    LDEF,
    AssignmentStmt,
    CallExpr,
    Decorator,
    Expression,
    FuncBase,
    FuncDef,
    LambdaExpr,
    MemberExpr,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import SemanticAnalyzerPluginInterface
from mypy.types import AnyType, CallableType, Instance, Type, TypeOfAny, TypeVarType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import JAX_PRIVATE, PARTIAL
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.declared_types import static_problem
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name
from mypy_plugin.statements import walk


def bound_method_owner(expr: Expression, owner_type: Type | None) -> TypeInfo | None:
    """The class of ``obj`` if ``expr`` is ``obj.method`` bound to an instance (``owner_type``
    is the type of ``obj``)."""
    return _bound_method(expr, owner_type)[0]


def _bound_method(expr: Expression, owner_type: Type | None) -> tuple[TypeInfo | None, str]:
    """The class of ``obj`` and the method's qualified name (``Base.run``, named after the class
    that defines it, as Python names the function) if ``expr`` is ``obj.method``."""
    if not isinstance(expr, MemberExpr) or owner_type is None:
        return None, ""
    owner = get_proper_type(owner_type)
    if not isinstance(owner, Instance):
        return None, ""
    symbol = owner.type.get(expr.name)
    if symbol is None or not is_instance_method(symbol.node):
        return None, ""
    defined_in = symbol.node.info if isinstance(symbol.node, (FuncBase, Decorator)) else owner.type
    return owner.type, f"{class_name(defined_in)}.{expr.name}"


def bound_method_problem(expr: Expression, owner_type: Type | None, judge: Judge) -> Problem | None:
    """The problem for ``expr`` if it is ``obj.method`` and ``owner_type`` (obj's type) an instance
    that is no static value; a method bound to a static value is as safe as that value."""
    owner, method = _bound_method(expr, owner_type)
    if owner is None or owner_type is None or static_problem(owner_type, judge) is None:
        return None
    return phrases.bound_method(method, class_name(owner))


def is_instance_method(node: object) -> bool:
    if isinstance(node, Decorator):
        return not node.func.is_property and is_instance_method(node.func)
    if isinstance(node, OverloadedFuncDef):
        return bool(node.items) and is_instance_method(node.items[0])
    return isinstance(node, FuncDef) and not (node.is_static or node.is_class)


def fresh_callable_problem(expr: Expression, module: str, enclosing: Sequence[FuncBase]) -> Problem | None:
    """The problem for a lambda, or for a function defined in the innermost of ``enclosing``
    (the functions around the expression, outermost first, in ``module``)."""
    described = fresh_callable(expr, module, enclosing)
    return phrases.fresh_callable(described) if described is not None else None


def fresh_callable(expr: Expression, module: str, enclosing: Sequence[FuncBase]) -> str | None:
    """``expr`` described (``phrases.A_LAMBDA``, ``phrases.a_local_function``,
    ``phrases.made_by``) if it is a lambda, a function defined in one of ``enclosing``
    or a call of a jax transformation (``jax.jit(f)``, ``jax.grad(f)``): a new object, hashed by
    identity, each time it runs."""
    if isinstance(expr, LambdaExpr):
        return phrases.A_LAMBDA
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.fullname == PARTIAL:
        return phrases.made_by(PARTIAL)
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and makes_function(expr.callee):
        fullname = expr.callee.fullname
        return phrases.made_by(f"jax.{fullname.rpartition('.')[2]}" if fullname.startswith(JAX_PRIVATE) else fullname)
    if not isinstance(expr, NameExpr) or expr.kind != LDEF or not isinstance(expr.node, (FuncDef, Decorator)):
        return None
    return local_function(expr.name, module, _up_to_definition(enclosing, expr.node))


def _up_to_definition(enclosing: Sequence[FuncBase], node: FuncDef | Decorator) -> Sequence[FuncBase]:
    """``enclosing`` (outermost first) down to the function whose own body defines ``node``: a
    nested function may use a local function of one around it."""
    for index in range(len(enclosing) - 1, -1, -1):
        function = enclosing[index]
        own = walk([function.body], scope=function, definitions=True) if isinstance(function, FuncDef) else ()
        if any(step is node and scope is function for step, _, scope, _ in own):
            return enclosing[: index + 1]
    return enclosing


def made_at(expr: Expression) -> Expression | FuncDef:
    """Where the object ``expr`` evaluates to is made: a local function's definition (every use
    of its name in one run of the code around it is one object), else ``expr`` itself."""
    if isinstance(expr, NameExpr) and expr.kind == LDEF and isinstance(expr.node, (FuncDef, Decorator)):
        return expr.node.func if isinstance(expr.node, Decorator) else expr.node
    return expr


def local_function(name: str, module: str, enclosing: Sequence[FuncBase]) -> str | None:
    """The function ``name`` defined in the innermost of ``enclosing`` (the functions around its
    definition, outermost first), described with its qualified name; None at module level."""
    if not enclosing:
        return None
    outermost = enclosing[0].fullname.removeprefix(f"{module}.")
    return phrases.a_local_function(
        ".<locals>.".join([outermost, *(function.name for function in enclosing[1:]), name])
    )


def makes_function(callee: RefExpr) -> bool:
    """A function of jax declared to return a function (``jax.jit``, ``jax.grad``, ``jax.vmap``):
    jax's transformations wrap what they are given in a new function object at every call. A
    class deriving from a callable protocol counts (``jax.jit``'s ``JitWrapped``), one that merely
    has a ``__call__`` does not (a ``Mesh`` decorates functions, and is a value)."""
    node = callee.node.func if isinstance(callee.node, Decorator) else callee.node
    if isinstance(node, OverloadedFuncDef):
        node = node.items[0].func if node.items and isinstance(node.items[0], Decorator) else None
    signature = node.type if isinstance(node, FuncDef) else None
    if not callee.fullname.startswith("jax.") or not isinstance(signature, CallableType):
        return False
    return is_function_type(signature.ret_type)


def is_function_type(typ: Type | None) -> bool:
    """A declared function: a callable type, a type variable bound to one (``jax.vmap`` returns
    its ``F``), or a class deriving from a callable protocol (one that merely has a ``__call__``
    is a value that can be called)."""
    proper = get_proper_type(typ) if typ is not None else None
    if isinstance(proper, TypeVarType):
        return is_function_type(proper.upper_bound)
    bases = proper.type.mro if isinstance(proper, Instance) else []
    return isinstance(proper, CallableType) or any(
        base.is_protocol and "__call__" in base.protocol_members for base in bases
    )


def default_problem(default: Expression, api: SemanticAnalyzerPluginInterface, judge: Judge) -> Problem | None:
    """A bound method as a field's default (``fn: Callable = Helper().run``), judged while the
    class is analysed."""
    if not isinstance(default, MemberExpr):
        return None
    return bound_method_problem(default, _declared_type(default.expr, api), judge)


def _declared_type(expr: Expression, api: SemanticAnalyzerPluginInterface) -> Type | None:
    """The type of ``expr`` where semantic analysis already knows it: a typed name, ``Cls()``,
    or a name this module assigns ``Cls()`` at top level (inferred only later, by the checker)."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        if expr.node.type is not None:
            return expr.node.type
        assigned = _top_level_value(expr.node, api)
        return _declared_type(assigned, api) if isinstance(assigned, CallExpr) else None
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
        info = expr.callee.node
        if isinstance(info, TypeInfo):
            return Instance(info, [AnyType(TypeOfAny.special_form)] * len(info.defn.type_vars))
    return None


def _top_level_value(var: Var, api: SemanticAnalyzerPluginInterface) -> Expression | None:
    """The value of ``var = value`` among the current module's top-level statements."""
    module = api.modules.get(api.cur_mod_id)
    for stmt in module.defs if module is not None else ():
        if isinstance(stmt, AssignmentStmt) and any(
            isinstance(lvalue, NameExpr) and lvalue.node is var for lvalue in stmt.lvalues
        ):
            return stmt.rvalue
    return None
