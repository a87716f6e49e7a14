"""What a jit call is given: the ``def`` behind it, a bound method, a class jit can pass as ``self``.

Shared by the checks on ``jax.jit`` and on ``jaxtypes.jit``, which word these problems alike.
Classes registered as pytrees with ``jax.tree_util`` are recognised by their decorator (recorded
in the class's metadata, so any module sees it) or by a top-level registration call in the
module being checked.
"""

from __future__ import annotations


from collections.abc import Iterable, Mapping

from mypy.nodes import (
    CallExpr,
    Decorator,
    Expression,
    ExpressionStmt,
    FuncDef,
    MemberExpr,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface, ClassDefContext, FunctionContext, MethodContext
from mypy.types import Instance, NoneType, Type, UnionType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import JAX_STATIC_CLASS
from jaxtypes._vocabulary.names import PYTREE_REGISTRATIONS
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.dataclass_options import is_pytree_dataclass
from mypy_plugin.declared_types import jaxtypes_role
from mypy_plugin.jit_evidence import bound_method_evidence, method_reads
from mypy_plugin.jitted_functions import transformed_function
from mypy_plugin.jitted_types import below_jax_package
from mypy_plugin.markers import class_name, is_array_class
from mypy_plugin.metadata import DataclassOptions, LibraryFields, RegisteredPytree, UnseenDecorator
from mypy_plugin.method_bodies import definition, takes_self
from mypy_plugin.mypy_internals import MypyDataclass, checked_module, find_dataclass_transform_spec, named_tuple_base
from mypy_plugin.reporting import report
from mypy_plugin.static_values import bound_method_owner
from mypy_plugin.statements import calls, looped_items, named_items, top_level_statements


def function_of(context: object, fun: Expression) -> FuncDef | None:
    """The ``def`` being jitted: the decorated one, or the one ``jit(name)`` names."""
    if isinstance(context, Decorator):
        return context.func
    return definition(fun.node) if isinstance(fun, RefExpr) and not isinstance(fun, MemberExpr) else None


def refers_to_class(expr: Expression) -> bool:
    """``expr`` names a class (``Class.method`` is a plain function, not a bound method)."""
    return isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo)


def method_owner(function: FuncDef) -> TypeInfo | None:
    """The class whose instances ``function`` takes as ``self``, if it takes one (``takes_self``)."""
    return function.info if takes_self(function) else None


def check_bound_method(
    ctx: FunctionContext | MethodContext, fun: Expression, jit_name: str, *, needs_evidence: bool
) -> None:
    """``jit(obj.method)`` with ``obj`` a mutable object (``jit-bound-method``), at ``fun``; also
    where a jax transformation wraps it (``jit(jax.vmap(obj.method))``), which calls it in turn.

    With ``needs_evidence`` (plain ``jax.jit``) it is reported only where ``jit_evidence`` shows
    that it goes wrong; ``jaxtypes.jit``, which users opt into, refuses every such object.
    """
    fun = transformed_function(fun)
    if not isinstance(fun, MemberExpr) or refers_to_class(fun.expr):
        return
    info = bound_method_owner(fun, ctx.api.get_expression_type(fun.expr))
    if info is None or jaxtypes_role(info) is not None or is_array_class(info):
        return  # a registered pytree is no exception: jit(obj.method) compiles obj in, unread
    problem: Problem | None = phrases.jitted_mutable_object(class_name(info))
    if needs_evidence:
        reads = method_reads(ctx.api, info, fun.name)
        problem = bound_method_evidence(ctx.api, fun.expr, info, ctx.context, fun.name, reads)
    if problem is not None:
        where = phrases.jitted_bound_method(jit_name, class_name(info), fun.name)
        report(ctx.api, problem, where, fun)


def registered_class_hook(ctx: ClassDefContext) -> bool:
    """``@jax.tree_util.register_pytree_node_class`` and friends: remember it in the class's metadata."""
    RegisteredPytree().write(ctx.cls.info)
    return True


def is_registered_pytree(api: CheckerPluginInterface, info: TypeInfo) -> bool:
    """A class registered with ``jax.tree_util``: decorated (from its metadata, in any module),
    or by a ``register_*(Class, ...)`` statement of the top-level code of the module being checked
    (a loop's or a branch's too), or a helper's that may register it (``registering``); a class
    registered by a call in another module counts as a plain class.
    """
    if RegisteredPytree.read(info) is not None:
        return True
    tree = checked_module(api)
    if tree is None or tree.fullname != info.module_name:
        return False
    calls = [stmt.expr for stmt in top_level_statements(tree) if isinstance(stmt, ExpressionStmt)]
    return registering(calls, info, tree)


def registering(
    expressions: Iterable[Expression],
    info: TypeInfo,
    tree: MypyFile,
    looped: Mapping[Var, list[Expression]] | None = None,
) -> bool:
    """One of ``expressions`` (of ``tree``) is a call registering ``info`` as a pytree:
    ``jax.tree_util``'s, or a helper's that may (pantea's ``register_jax_pytree_node(Box)`` calls
    ``register_pytree_node``): a function called on the class as a decorator would be
    (``may_register_decorated``), given the class itself or a loop's variable that takes it
    (``statements.looped_items``: the caller's, else read here where a call needs them)."""
    for expr in expressions:
        if not isinstance(expr, CallExpr) or not isinstance(expr.callee, RefExpr) or not expr.args:
            continue
        if not (expr.callee.fullname in PYTREE_REGISTRATIONS or may_register_decorated(expr.callee.node)):
            continue
        if isinstance(expr.args[0], NameExpr) and isinstance(expr.args[0].node, Var) and looped is None:
            looped = looped_items(tree.defs)
        if any(isinstance(item, RefExpr) and item.node is info for item in named_items(expr.args[0], looped or {})):
            return True
    return False


def may_be_registered(info: TypeInfo) -> bool:
    """Code the plugin does not run may register ``info`` as a pytree: a decorator, metaclass,
    ``__init_subclass__`` or ``__new__`` of it or a base, which may register each class made from
    it (netket's ``struct.Pytree``; distrax's ``Jittable``, whose ``__new__`` registers the class
    of each instance; a decorator: ``unseen_decorator_hook``), each one that can import jax, not
    the standard library's or a package's jax depends on (``below_jax``)."""
    for base in info.mro:
        if UnseenDecorator.read(base) is not None:
            return True
        meta = base.declared_metaclass
        if meta is not None and not below_jax(meta.type):
            return True
        if ("__init_subclass__" in base.names or "__new__" in base.names) and not below_jax(base):
            return True
    return False


def unseen_decorator_hook(ctx: ClassDefContext) -> None:
    """A class decorated by a function the plugin has no rule for, which can import jax: it may
    register the class as a pytree (tinygp's ``dataclass`` helper calls ``register_pytree_node``
    on the class it makes), so the class is not judged a plain class."""
    UnseenDecorator().write(ctx.cls.info)


def may_register_decorated(node: object) -> bool:
    """``node``, a class decorator, is a function (or a class whose instance is called on the
    class: gmmx's ``@register_dataclass_jax(data_fields=[...])``) of code that can import jax (not jax's own,
    whose registrations have their rules, nor the standard library's or a package's jax depends
    on) and no ``dataclass_transform`` (another library's dataclass, judged as one, and whose
    hooks, mypy's or its own plugin's, this one must not take the place of), or one imported from a
    module mypy cannot read (a package without ``py.typed``, such as chex, whose ``dataclass``
    registers the class): ``unseen_decorator_hook`` applies."""
    if isinstance(node, Var):
        return node.is_suppressed_import
    if isinstance(node, Decorator):
        node = node.func
    if isinstance(node, TypeInfo) and node.get_method("__call__") is None:
        return False  # a class whose instances decorate (``@register(data_fields=...)``) calls one
    if not isinstance(node, (FuncDef, OverloadedFuncDef, TypeInfo)) or find_dataclass_transform_spec(node) is not None:
        return False
    package = node.fullname.partition(".")[0]
    return package not in ("jax", "jaxtypes") and not below_jax_package(package)


def below_jax(info: TypeInfo) -> bool:
    """A class of the standard library or of a package jax depends on (``JAX_DEPENDENCIES``): none
    can import jax to register it."""
    return below_jax_package(info.module_name.partition(".")[0])


def is_pytree(api: CheckerPluginInterface, info: TypeInfo) -> bool:
    """Whether jax flattens instances of ``info`` as a pytree node, which jit traces: a jaxtypes
    pytree class, a named tuple (jax registers every one), a class registered with
    ``jax.tree_util`` (``is_registered_pytree``), or one another library makes a pytree
    (``is_library_pytree``)."""
    if jaxtypes_role(info) == "pytree" or named_tuple_base(info) is not None:
        return True
    return is_registered_pytree(api, info) or is_library_pytree(info)


def holds_no_leaves(typ: Type) -> bool:
    """Whether a value of ``typ`` flattens to no leaf, so that jit hands it through a traced
    position as it is, never as a tracer: None, an instance of a class registered static as a
    whole (``jax.tree_util.register_static``, recorded with its fields; its subclasses are not
    registered), or a union of those."""
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return all(holds_no_leaves(item) for item in proper.items)
    if isinstance(proper, Instance):
        record = LibraryFields.read(proper.type)
        return record is not None and record.marker == JAX_STATIC_CLASS.marker
    return isinstance(proper, NoneType)


def pytree_mixin(api: CheckerPluginInterface, info: TypeInfo) -> bool:
    """``info`` is a base whose instances are those of the classes the module derives from it,
    all of them pytrees (or classes code the plugin does not run may register), at least one: no
    code of the module builds ``info`` itself (phyjax2d's ``PyTreeOps``, whose jitted
    ``get_slice`` maps over ``self``, under every ``chex.dataclass`` of the module). Read only in
    the class's own module, which is where its methods are checked."""
    tree = checked_module(api)
    if tree is None or info.module_name != tree.fullname:
        return False
    derived = [
        symbol.node
        for symbol in tree.names.values()
        if isinstance(symbol.node, TypeInfo)
        and symbol.node is not info
        and symbol.node.module_name == tree.fullname
        and info in symbol.node.mro
    ]
    if not derived or not all(is_pytree(api, cls) or may_be_registered(cls) for cls in derived):
        return False
    return not any(isinstance(call.callee, RefExpr) and call.callee.node is info for call in calls(tree.defs))


def is_library_pytree(info: TypeInfo) -> bool:
    """Classes that are pytrees by means the plugin cannot see: jax's own (registered inside jax),
    dataclass transforms other than the stdlib's and jaxtypes' (``flax.struct``, ``chex``,
    ``equinox.Module``), which register their classes as pytrees, and dataclass decorators other
    libraries present as the stdlib's (``jax_dataclasses.pytree_dataclass``)."""
    if info.module_name.partition(".")[0] in ("jax", "jaxlib") or is_pytree_dataclass(info):
        return True
    return MypyDataclass.read(info) is not None and DataclassOptions.read(info) is None and jaxtypes_role(info) is None
