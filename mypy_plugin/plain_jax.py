"""Checks on plain ``jax.jit``: the seeds' bugs as written, without jaxtypes.

- ``@jax.jit`` on a method of a class that is neither a pytree nor has ``self`` static
  (``jit-method-self``), at the decorator;
- ``static_argnums``/``static_argnames`` naming a parameter declared as a type that hashes by
  identity, is unhashable or is a non-frozen dataclass (the ``static-*`` rules), at the decorator
  or the ``jax.jit(...)`` call;
- a call of a jitted function passing such a value in a static position, at the argument;
- ``jax.jit(obj.method)`` with ``obj`` a mutable object (``jit-bound-method``).

The static positions travel in the type ``jax.jit`` returns: its ``JitWrapped`` instance gets
``extra_attrs`` (literal tuples of the static indices and names), which mypy serialises, so the
call-site check also works on functions jitted in other modules, from the cache and in workers.
The decorator-factory form ``jax.jit(static_argnums=0)`` returns a callable named
``FACTORY_NAME``, so mypy hands the decorated function to ``factory_hook``; for
``partial(jax.jit, ...)`` the ``functools.partial`` hooks run mypy's own partial support first,
then do the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    CallExpr,
    Decorator,
    Expression,
    ExpressionStmt,
    FuncDef,
    IntExpr,
    ListExpr,
    MemberExpr,
    RefExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface, ClassDefContext, FunctionContext, MethodContext
from mypy.plugins.functools import partial_call_callback, partial_new_callback
from mypy.types import (
    CallableType,
    ExtraAttrs,
    Instance,
    LiteralType,
    TupleType,
    Type,
    get_proper_type,
)

from jaxtypes.rules import JIT_BOUND_METHOD, JIT_METHOD_SELF, STATIC_IDENTITY_HASH
from mypy_plugin.bound_methods import is_instance_method
from mypy_plugin.codes import error_code
from mypy_plugin.type_rules import Finding, is_array_class, jaxtypes_kind, static_violation

JIT = "jax._src.api.jit"
JITTED_CALL = "jax._src.pjit.JitWrapped.__call__"
FACTORY_NAME = "jaxtypes plain jax.jit decorator"
"""The name given to what ``jax.jit(static_argnums=...)`` returns; ``factory_hook`` claims it."""

_NUMS = "__jaxtypes_static_argnums__"
_NAMES = "__jaxtypes_static_argnames__"

PYTREE_CLASS_DECORATORS = frozenset(
    f"jax._src.tree_util.{name}"
    for name in ("register_pytree_node_class", "register_pytree_with_keys_class", "register_dataclass")
)
PYTREE_REGISTRATIONS = frozenset(
    {
        *PYTREE_CLASS_DECORATORS,
        "jax._src.tree_util.register_pytree_node",
        "jax._src.tree_util.register_pytree_with_keys",
    }
)
IDENTITY_HASH_FIX = (
    "make the class a @jaxtypes.static_dataclass (frozen, hashed by value), or give it __hash__ "
    "and __eq__ over its values and never mutate an instance"
)

REGISTERED_KEY = "jaxtypes_registered_pytree"
"""``info.metadata`` key marking a class decorated as a pytree by ``jax.tree_util``."""


class Statics:
    """The static positions of a jitted function: indices and names (either may be unknown)."""

    def __init__(self, nums: Iterable[int], names: Iterable[str]) -> None:
        self.nums = tuple(sorted(set(nums)))
        self.names = tuple(sorted(set(names)))

    def resolved(self, fn: CallableType) -> Statics:
        """Both spellings completed from ``fn``'s parameters, as ``jax.jit`` does."""
        positional = [name for name, kind in zip(fn.arg_names, fn.arg_kinds) if kind.is_positional()]
        size = len(positional)
        nums = [n + size if n < 0 else n for n in self.nums]
        named = [positional[n] for n in nums if 0 <= n < size]
        names = [*self.names, *(name for name in named if name is not None)]
        nums += [i for i, name in enumerate(positional) if name in self.names]
        return Statics(nums, names)

    def attach(self, api: CheckerPluginInterface, instance: Instance) -> Instance:
        """``instance`` carrying these positions in its ``extra_attrs`` (they survive the cache)."""
        int_type = api.named_generic_type("builtins.int", [])
        str_type = api.named_generic_type("builtins.str", [])
        object_type = api.named_generic_type("builtins.object", [])
        tuple_type = api.named_generic_type("builtins.tuple", [object_type])
        attrs: dict[str, Type] = {
            _NUMS: TupleType([LiteralType(n, int_type) for n in self.nums], tuple_type),
            _NAMES: TupleType([LiteralType(n, str_type) for n in self.names], tuple_type),
        }
        extra = ExtraAttrs(attrs, set(attrs))
        return Instance(instance.type, instance.args, last_known_value=instance.last_known_value, extra_attrs=extra)

    @staticmethod
    def carried(typ: Type) -> Statics | None:
        """The positions ``attach`` put on ``typ``, if any."""
        proper = get_proper_type(typ)
        if not isinstance(proper, Instance) or proper.extra_attrs is None:
            return None
        attrs = proper.extra_attrs.attrs
        if _NUMS not in attrs:
            return None
        return Statics(_literals(attrs[_NUMS]), _literals(attrs[_NAMES]))


def _literals(typ: Type) -> list[Any]:
    proper = get_proper_type(typ)
    items = proper.items if isinstance(proper, TupleType) else []
    return [item.value for item in map(get_proper_type, items) if isinstance(item, LiteralType)]


def jit_hook(ctx: FunctionContext) -> Type:
    """``jax.jit(f, ...)``, ``@jax.jit`` and ``jax.jit(static_argnums=...)``."""
    statics = _read_statics(ctx)
    returned = get_proper_type(ctx.default_return_type)
    if not ctx.args or not ctx.args[0]:
        if statics is None or not isinstance(returned, CallableType):
            return ctx.default_return_type
        wrapped = get_proper_type(returned.ret_type)
        if isinstance(wrapped, Instance):
            return returned.copy_modified(name=FACTORY_NAME, ret_type=statics.attach(ctx.api, wrapped))
        return ctx.default_return_type
    fun, fun_type = ctx.args[0][0], ctx.arg_types[0][0]
    return _check_jitted(ctx, statics or Statics((), ()), fun, fun_type, ctx.default_return_type)


def factory_hook(ctx: FunctionContext) -> Type:
    """The function given to the decorator ``jax.jit(static_argnums=...)`` returned."""
    statics = Statics.carried(ctx.default_return_type)
    if statics is None or not ctx.args or not ctx.args[0]:
        return ctx.default_return_type
    return _check_jitted(ctx, statics, ctx.args[0][0], ctx.arg_types[0][0], ctx.default_return_type)


def call_hook(ctx: MethodContext) -> Type:
    """A call of a jitted function: the values passed in static positions."""
    statics = Statics.carried(ctx.type)
    if statics is None:
        return ctx.default_return_type
    position: int | None = 0
    for kinds, names, exprs, types in zip(ctx.arg_kinds, ctx.arg_names, ctx.args, ctx.arg_types):
        for kind, name, expr, typ in zip(kinds, names, exprs, types):
            if kind == ARG_POS and position is not None:
                static, label = position in statics.nums, f"static argument {position}"
                position += 1
            elif kind == ARG_NAMED and name is not None:
                static, label = name in statics.names, f"static argument {name!r}"
            else:
                position = None  # after *args, positions are unknown
                continue
            finding = _static_finding(typ) if static else None
            if finding is not None:
                where = f"{label} of this jitted call"
                ctx.api.fail(finding.message(where), expr, code=error_code(finding.rule))
    return ctx.default_return_type


def _static_finding(typ: Type) -> Finding | None:
    """``static_violation``, with a fix for a plain class (not a jaxtypes field) that hashes by identity."""
    finding = static_violation(typ, _no_dependency)
    if finding is not None and finding.rule is STATIC_IDENTITY_HASH:
        return finding._replace(fix=IDENTITY_HASH_FIX)
    return finding


def _no_dependency(info: TypeInfo) -> None:
    """The checker API cannot register plugin dependencies; the module using a class depends on it."""


def _check_jitted(
    ctx: FunctionContext | MethodContext, statics: Statics, fun: Expression, fun_type: Type, result: Type
) -> Type:
    """Check what is being jitted; return ``result`` (a ``JitWrapped``) carrying its static positions."""
    returned = get_proper_type(result)
    signature = get_proper_type(fun_type)
    if isinstance(signature, CallableType):
        statics = statics.resolved(signature)
    if isinstance(fun, MemberExpr) and not _refers_to_class(fun.expr):
        _check_bound_method(ctx, fun)
    function = _function_of(ctx.context, fun)
    if function is not None and isinstance(signature, CallableType):
        _check_definition(ctx, function, signature, statics, fun)
    if statics.nums or statics.names:
        return statics.attach(ctx.api, returned) if isinstance(returned, Instance) else result
    return result


def _refers_to_class(expr: Expression) -> bool:
    return isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo)


def _function_of(context: object, fun: Expression) -> FuncDef | None:
    """The ``def`` being jitted: the decorated one, or the one ``jax.jit(name)`` names."""
    if isinstance(context, Decorator):
        return context.func
    node = fun.node if isinstance(fun, RefExpr) and not isinstance(fun, MemberExpr) else None
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


def _check_definition(
    ctx: FunctionContext | MethodContext,
    function: FuncDef,
    signature: CallableType,
    statics: Statics,
    fun: Expression,
) -> None:
    """``jit-method-self`` for ``self`` jit cannot take; ``static-*`` for static parameters' types."""
    api = ctx.api
    owner = function.info if function.info and not (function.is_static or function.is_class) else None
    qualname = f"{function.info.name}.{function.name}" if function.info else function.name
    for index, (name, typ) in enumerate(zip(signature.arg_names, signature.arg_types)):
        static = index in statics.nums or name in statics.names
        if owner is not None and index == 0 and not static:
            problem = _self_problem(api, owner)
            if problem is not None:
                message = JIT_METHOD_SELF.message(qualname, problem, _method_self_fix(owner))
                api.fail(message, fun, code=error_code(JIT_METHOD_SELF))
        elif static:
            finding = _static_finding(typ)
            if finding is not None:
                where = f"parameter {name!r} of {qualname}"
                api.fail(finding.message(where), fun, code=error_code(finding.rule))


def _self_problem(api: CheckerPluginInterface, owner: TypeInfo) -> str | None:
    """Why jit cannot take ``self`` as a traced argument, or None for a pytree."""
    kind = jaxtypes_kind(owner)
    if kind == "static":
        return (
            f"is jitted with self traced, and {owner.name} is a static_dataclass, not a pytree, "
            f"so jit cannot pass self"
        )
    if kind == "pytree" or _is_registered_pytree(api, owner):
        return None
    return f"is jitted, and {owner.name} is a plain class, so jit cannot pass self correctly"


def _method_self_fix(owner: TypeInfo) -> str | None:
    """Runtime's words for a plain class; for a static class, mark self static."""
    if jaxtypes_kind(owner) == "static":
        return "use @jaxtypes.jit (self becomes static), or mark it: @partial(jax.jit, static_argnums=0)"
    name = owner.name
    return (
        f"decorate {name} with @jaxtypes.static_dataclass if its fields are settings "
        f"(self becomes a static argument), or with @jaxtypes.pytree_dataclass if they hold "
        f"arrays (self becomes a pytree); change an instance with dataclasses.replace"
    )


def _check_bound_method(ctx: FunctionContext | MethodContext, fun: MemberExpr) -> None:
    owner = get_proper_type(ctx.api.get_expression_type(fun.expr))
    if not isinstance(owner, Instance):
        return
    symbol = owner.type.get(fun.name)
    info = owner.type
    if symbol is None or not is_instance_method(symbol.node):
        return
    if jaxtypes_kind(info) is not None or is_array_class(info) or _is_registered_pytree(ctx.api, info):
        return
    name = info.name
    ctx.api.fail(
        JIT_BOUND_METHOD.message(
            f"jax.jit({name}.{fun.name} bound to an instance)",
            f"would compile that {name} instance's current attributes into the code; "
            f"mutating it later (obj.attr = ...) changes nothing jit looks at",
        ),
        fun,
        code=error_code(JIT_BOUND_METHOD),
    )


def registered_class_hook(ctx: ClassDefContext) -> bool:
    """``@jax.tree_util.register_pytree_node_class`` and friends: remember it in the class's metadata."""
    ctx.cls.info.metadata[REGISTERED_KEY] = {}
    return True


def _is_registered_pytree(api: CheckerPluginInterface, info: TypeInfo) -> bool:
    """A class registered with ``jax.tree_util``: decorated (from its metadata, in any module),
    or by a top-level ``register_*(Class, ...)`` statement in the module being checked (a class
    registered by a call in another module counts as a plain class).
    """
    if REGISTERED_KEY in info.metadata:
        return True
    tree = getattr(api, "tree", None)
    if tree is None or tree.fullname != info.module_name:
        return False
    calls = [stmt.expr for stmt in tree.defs if isinstance(stmt, ExpressionStmt)]
    return _registering(calls, info)


def _registering(expressions: Iterable[Expression], info: TypeInfo) -> bool:
    for expr in expressions:
        if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr):
            continue
        first = expr.args[0] if expr.args else None
        if expr.callee.fullname in PYTREE_REGISTRATIONS and isinstance(first, RefExpr) and first.node is info:
            return True
    return False


def _read_statics(ctx: FunctionContext) -> Statics | None:
    """``static_argnums``/``static_argnames`` of a ``jax.jit`` call, if written as literals."""
    values: dict[str, list[int | str]] = {"static_argnums": [], "static_argnames": []}
    given = False
    for names, exprs in zip(ctx.arg_names, ctx.args):
        for name, expr in zip(names, exprs):
            if name in values:
                literal = _literal_items(expr)
                if literal is None:
                    return None
                values[name] = literal
                given = True
    if not given:
        return Statics((), ())
    nums = [v for v in values["static_argnums"] if isinstance(v, int)]
    argnames = [v for v in values["static_argnames"] if isinstance(v, str)]
    return Statics(nums, argnames)


def _literal_items(expr: Expression) -> list[int | str] | None:
    if isinstance(expr, (TupleExpr, ListExpr)):
        items = [_literal(item) for item in expr.items]
        return [item for item in items if item is not None] if None not in items else None
    single = _literal(expr)
    return None if single is None else [single]


def _literal(expr: Expression) -> int | str | None:
    if isinstance(expr, (IntExpr, StrExpr)):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr):
        return -expr.expr.value
    return None


def partial_hook(ctx: FunctionContext) -> Type:
    """``partial(jax.jit, static_argnums=...)``: mypy's own result, carrying the static positions."""
    result = partial_new_callback(ctx)
    fun = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    if not isinstance(fun, RefExpr) or fun.fullname != JIT:
        return result
    statics = _read_statics(ctx)
    proper = get_proper_type(result)
    if statics is None or not isinstance(proper, Instance) or proper.extra_attrs is not None:
        return result
    return statics.attach(ctx.api, proper)


def partial_call_hook(ctx: MethodContext) -> Type:
    """Applying ``partial(jax.jit, ...)`` to a function: the same checks as ``jax.jit(f, ...)``."""
    result = partial_call_callback(ctx)
    statics = Statics.carried(ctx.type)
    if statics is None or not ctx.args or not ctx.args[0]:
        return result
    return _check_jitted(ctx, statics, ctx.args[0][0], ctx.arg_types[0][0], result)
