"""mypy plugin for jaxtypes: the static-class rules, checked while you type.

Enable it with ``plugins = ["mypy_plugin"]``. Hooks are looked up by full name (dict and set
membership only); every hook is guarded so a bug in the plugin is reported as a note instead
of crashing mypy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mypy.nodes import Block, CallExpr, FuncDef, MypyFile, RefExpr, SymbolNode, TypeInfo, Var
from mypy.options import Options
from mypy.plugin import ClassDefContext, FunctionContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import Type

from jaxtypes._vocabulary import names
from jaxtypes._vocabulary.release import release
from mypy_plugin import filter_jit, jaxtypes_jit, library_fields, nondiff_positions, plain_jax, reporting, trusted_types
from mypy_plugin.classes import (
    is_static_class,
    pytree_class_hook,
    static_class_hook,
    subclass_hook,
)
from mypy_plugin.constructors import constructor_hook, has_static_fields, replace_hook
from mypy_plugin.dataclass_options import attrs_tag_hook
from mypy_plugin.declared_types import record_rebuilt_attributes
from mypy_plugin.dependencies import expose_recorded_facts
from mypy_plugin.guard import guarded
from mypy_plugin.hashing import record_hashed_attributes
from mypy_plugin.changing_calls import changing_call_hook, may_change_instances
from mypy_plugin.jit_evidence import record_class_mutation
from mypy_plugin.jitted_functions import forwarder_of, record_jitted_methods
from mypy_plugin.jit_targets import may_register_decorated, unseen_decorator_hook
from mypy_plugin.jitted_types import below_equinox, carried_callee, filtered_callee
from mypy_plugin.jit_statics import returned_statics
from mypy_plugin.metadata import CACHE_FORMAT_VERSION
from mypy_plugin.method_bodies import record_held_methods, record_method_reads
from mypy_plugin.mypy_internals import ATTRS_MAKERS, DATACLASS_MAKERS, loaded_module
from mypy_plugin.static_positions import (
    call_hook,
    carried_call_hook,
    is_rebound,
    jitted_factory_hook,
    library_call_hook,
    plain_call_hook,
    rebound_call_hook,
    staged_call_hook,
    traced_through_hook,
)


def _partial_decorator_hook(ctx: ClassDefContext) -> bool:
    """``@functools.partial(decorator, ...)``: the class decorated as ``decorator`` decorates it,
    its options the partial's keywords (``@partial(jax.tree_util.register_dataclass,
    data_fields=[...], meta_fields=[...])``, as jax documents it)."""
    reason = ctx.reason
    bound = reason.args[0] if isinstance(reason, CallExpr) and reason.args else None
    hook = _CLASS_DECORATOR_HOOKS.get(bound.fullname) if isinstance(bound, RefExpr) else None
    return hook(ctx) if hook is not None else True


_CLASS_DECORATOR_HOOKS: dict[str, Callable[[ClassDefContext], bool]] = {
    names.STATIC_DECORATOR: guarded(static_class_hook, True),
    names.PYTREE_DECORATOR: guarded(pytree_class_hook, True),
    **dict.fromkeys(names.FLATTEN_METHOD_REGISTRATIONS, guarded(library_fields.flatten_method_hook, True)),
    names.REGISTER_DATACLASS: guarded(library_fields.register_dataclass_hook, True),
    names.REGISTER_STATIC: guarded(library_fields.register_static_hook, True),
    library_fields.FLAX_DATACLASS: guarded(library_fields.flax_dataclass_hook, True),
    "functools.partial": guarded(_partial_decorator_hook, True),
}
_FIRST_PASS_CLASS_DECORATOR_HOOKS: dict[str, Callable[[ClassDefContext], None]] = {
    **dict.fromkeys(DATACLASS_MAKERS, guarded(library_fields.dataclass_tag_hook, None)),
    **dict.fromkeys(ATTRS_MAKERS, guarded(attrs_tag_hook, None)),
    names.TRUSTED_DECORATOR: guarded(trusted_types.decorator_hook, None),
}
_guarded_library_base_hook = guarded(library_fields.base_class_hook, None)
_guarded_derived_class_hook = guarded(library_fields.derived_class_hook, None)
_guarded_unseen_decorator_hook = guarded(unseen_decorator_hook, None)
_guarded_decorator_flatten_hook = guarded(library_fields.decorator_flatten_hook, True)


def _record_class(ctx: ClassDefContext) -> None:
    """What a class's own methods show, kept in its metadata for every later reader: how they
    change its instances, what its ``__hash__`` hashes, what its flatten method returns as aux
    data and whether it registers derived classes, what its construction makes anew, what each
    method reads through ``self``, which attributes hold one of its bound methods, and which
    methods it jits. A stub's methods have no bodies to read."""
    if ctx.api.is_stub_file:
        return
    record_class_mutation(ctx)
    record_hashed_attributes(ctx)
    library_fields.record_flattening(ctx)
    record_rebuilt_attributes(ctx)
    record_method_reads(ctx)
    record_held_methods(ctx)
    record_jitted_methods(ctx)
    expose_recorded_facts(ctx.cls)


_guarded_record_hook = guarded(_record_class, None)
_guarded_subclass_hook = guarded(subclass_hook, None)
_guarded_constructor_hook = guarded(constructor_hook, lambda ctx: ctx.default_return_type)
_guarded_replace_hook = guarded(replace_hook, lambda ctx: ctx.default_return_type)
_FUNCTION_HOOKS: dict[str, Callable[[FunctionContext], Type]] = {
    "dataclasses.replace": _guarded_replace_hook,
    **dict.fromkeys(
        (names.REGISTER_DATACLASS, names.REGISTER_STATIC),
        guarded(library_fields.register_call_hook, lambda ctx: ctx.default_return_type),
    ),
    **dict.fromkeys(
        names.PYTREE_NODE_REGISTRATIONS,
        guarded(library_fields.register_node_call_hook, lambda ctx: ctx.default_return_type),
    ),
    **{
        jit: guarded(plain_jax.jit_hook(public), lambda ctx: ctx.default_return_type)
        for jit, public in names.JITS.items()
    },
    **{
        custom: guarded(nondiff_positions.construction_hook(public), lambda ctx: ctx.default_return_type)
        for custom, public in names.CUSTOM_DERIVATIVES.items()
    },
    **dict.fromkeys(names.JITTED_LIBRARY_FUNCTIONS, guarded(library_call_hook, lambda ctx: ctx.default_return_type)),
    **dict.fromkeys(names.LAX_TRACED_FUNCTIONS, guarded(plain_jax.lax_hook, lambda ctx: ctx.default_return_type)),
    **dict.fromkeys(names.TRACING_TRANSFORMS, guarded(traced_through_hook, lambda ctx: ctx.default_return_type)),
    plain_jax.FACTORY_NAME: guarded(plain_jax.factory_hook, lambda ctx: ctx.default_return_type),
    names.PARTIAL: guarded(plain_jax.partial_hook, lambda ctx: ctx.default_return_type),
    names.EQX_FILTER_JIT: guarded(filter_jit.filter_jit_hook, lambda ctx: ctx.default_return_type),
    names.NNX_JIT: guarded(plain_jax.nnx_jit_hook, lambda ctx: ctx.default_return_type),
    filter_jit.FACTORY_NAME: guarded(filter_jit.factory_hook, lambda ctx: ctx.default_return_type),
    names.JAXTYPES_JIT: guarded(jaxtypes_jit.jit_hook, lambda ctx: ctx.default_return_type),
    jaxtypes_jit.FACTORY_NAME: guarded(jaxtypes_jit.factory_hook, lambda ctx: ctx.default_return_type),
}
_guarded_filtered_call_hook = guarded(filter_jit.call_hook, lambda ctx: ctx.default_return_type)
_guarded_local_call_hook = guarded(filter_jit.local_call_hook, lambda ctx: ctx.default_return_type)
_guarded_rebound_call_hook = guarded(rebound_call_hook, lambda ctx: ctx.default_return_type)
_guarded_forwarder_hook = guarded(plain_jax.forwarder_hook, lambda ctx: ctx.default_return_type)
_guarded_factory_hook = guarded(jitted_factory_hook, lambda ctx: ctx.default_return_type)
_guarded_carried_call_hook = guarded(carried_call_hook, lambda ctx: ctx.default_return_type)
_guarded_changing_call_hook = guarded(changing_call_hook, lambda ctx: ctx.default_return_type)
_METHOD_HOOKS: dict[str, Callable[[MethodContext], Type]] = {
    names.JAX_JITTED_CALL: guarded(plain_call_hook, lambda ctx: ctx.default_return_type),
    **dict.fromkeys(names.JAX_JITTED_STAGES, guarded(staged_call_hook, lambda ctx: ctx.default_return_type)),
    f"{names.JAXTYPES_JITTED}.__call__": guarded(call_hook, lambda ctx: ctx.default_return_type),
    f"{names.JAXTYPES_JITTED}.__get__": guarded(jaxtypes_jit.get_hook, lambda ctx: ctx.default_return_type),
    "functools.partial.__call__": guarded(plain_jax.partial_call_hook, lambda ctx: ctx.default_return_type),
    **dict.fromkeys(
        (f"{custom}.__call__" for custom in names.CUSTOM_DERIVATIVES),
        guarded(nondiff_positions.call_hook, lambda ctx: ctx.default_return_type),
    ),
}


class JaxtypesPlugin(Plugin):
    """Dispatches mypy's hooks to the jaxtypes rules."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.settings = trusted_types.settings(options)  # a bad setting stops mypy here, once
        self.release = release()  # the code loaded now; read once, as finding it costs a scan of the path
        self._jit_roles: dict[FuncDef, tuple[Block, str | None]] = {}

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        hook = _FIRST_PASS_CLASS_DECORATOR_HOOKS.get(fullname)
        if hook is None and may_register_decorated(self._decorator(fullname)):
            return _guarded_unseen_decorator_hook
        return hook

    def _decorator(self, fullname: str) -> SymbolNode | None:
        """What a class decorator's ``fullname`` names: its symbol, or, for an attribute of a module
        mypy cannot read (``@tree_math.struct``, a module without ``py.typed``), that module's
        name, which its importer binds to a variable marked a suppressed import."""
        name = fullname
        while name:
            symbol = self.lookup_fully_qualified(name)
            if symbol is not None:
                return symbol.node if name == fullname or isinstance(symbol.node, Var) else None
            name = name.rpartition(".")[0]
        return None

    def get_customize_class_mro_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        return _guarded_record_hook

    def get_class_decorator_hook_2(self, fullname: str) -> Callable[[ClassDefContext], bool] | None:
        hook = _CLASS_DECORATOR_HOOKS.get(fullname)
        if hook is None and may_register_decorated(self._decorator(fullname)):
            return _guarded_decorator_flatten_hook
        return hook

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        info = self._class(fullname)
        if info is None:
            return None
        if is_static_class(info):
            return _guarded_subclass_hook
        if library_fields.library_base(info) is not None:
            return _guarded_library_base_hook
        return _guarded_derived_class_hook if library_fields.registers_derived(info) else None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        hook = _FUNCTION_HOOKS.get(fullname)
        if hook is not None:
            return hook
        if "." not in fullname:  # a function defined inside another: found by the call itself
            return _guarded_local_call_hook
        symbol = self.lookup_fully_qualified(fullname)
        if filtered_callee(symbol):
            return _guarded_filtered_call_hook
        if carried_callee(symbol) is not None:
            return _guarded_carried_call_hook
        node = symbol.node if symbol is not None else None
        if isinstance(node, FuncDef):
            tree = loaded_module(self, fullname.rpartition(".")[0])
            if is_rebound(tree, node):
                return _guarded_rebound_call_hook
            kind = self._jit_role(tree, node) if tree is not None else None
            if kind is not None:
                return _guarded_forwarder_hook if kind == "forwarder" else _guarded_factory_hook
        return _guarded_constructor_hook if isinstance(node, TypeInfo) and has_static_fields(node) else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        hook = _METHOD_HOOKS.get(fullname)
        if hook is not None or below_equinox(fullname):
            return hook
        symbol = self.lookup_fully_qualified(fullname)
        if filtered_callee(symbol):
            return _guarded_filtered_call_hook
        if carried_callee(symbol) is not None:
            return _guarded_carried_call_hook
        return _guarded_changing_call_hook if may_change_instances(symbol) else None

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """What mypy keys its cache on besides the code: the records' format, the codes, the
        settings, and the installed jaxtypes release, whose verdicts mypy replays for unchanged
        modules (a release that judges differently must not replay an older one's findings)."""
        trusted = list(self.settings.trusted_static_types)
        return {
            "version": CACHE_FORMAT_VERSION,
            "release": self.release,
            "codes": sorted(reporting.ERROR_CODES),
            "trusted_static_types": trusted,
        }

    def _jit_role(self, tree: MypyFile, function: FuncDef) -> str | None:
        """Whether ``function`` forwards to a jit (``"forwarder"``: ``jitted_functions.forwarder_of``)
        or returns a function it jits (``"factory"``: ``jit_statics.returned_statics``), read once
        per body: every call of every function asks, and the daemon keeps a definition's object
        across edits, giving it the new body."""
        known = self._jit_roles.get(function)  # kept only for a definition read from source
        if known is not None and known[0] is function.body:
            return known[1]
        if function not in tree.defs:  # not read from source: the cache keeps no bodies
            return None
        role = None
        if forwarder_of(tree, function) is not None:
            role = "forwarder"
        elif returned_statics(tree, function) is not None:
            role = "factory"
        self._jit_roles[function] = (function.body, role)
        return role

    def _class(self, fullname: str) -> TypeInfo | None:
        symbol = self.lookup_fully_qualified(fullname)
        node = symbol.node if symbol is not None else None
        return node if isinstance(node, TypeInfo) else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return JaxtypesPlugin
