"""The plugin's one door to mypy beyond its plugin interface (``mypy.plugin``).

Six kinds of things mypy does not promise to keep: its own dataclass, attrs and
``functools.partial`` hooks, which the plugin takes over for the decorators and calls it claims
and calls again (and how it tells a ``dataclass_transform`` decorator); the facts its dataclass, attrs and named tuple transforms record
(``MypyDataclass``, ``converted_fields``, ``named_tuple_fields``);
the daemon's triggers; the checker's, the semantic analyser's and the plugin's own attributes that
the plugin interface does not declare (the module being checked, the scope, ``note``, the loaded
modules); and its traversal
helpers (a function's return statements, the key that tells expressions of the same names and
literals apart); and its type relations (``is_subtype``, ``is_same_type``: whether a declaration
admits a value, and whether two declarations are one). A mypy release that moves any of them changes this file alone; CI runs the
plugin's tests on the oldest and the newest mypy allowed (``noxfile.py``).
"""

from __future__ import annotations

from typing import NamedTuple

from mypy.errorcodes import ErrorCode
from mypy.literals import literal_hash
from mypy.lookup import lookup_fully_qualified
from mypy.nodes import Context, Expression, FuncBase, FuncDef, FuncItem, LambdaExpr, MypyFile, SymbolTableNode, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext, Plugin, SemanticAnalyzerPluginInterface
from mypy.plugins.attrs import (
    attr_class_makers,
    attr_dataclass_makers,
    attr_define_makers,
    attr_frozen_makers,
    attr_tag_callback,
)
from mypy.plugins.dataclasses import dataclass_class_maker_callback, dataclass_makers, dataclass_tag_callback
from mypy.plugins.functools import partial_call_callback, partial_new_callback
from mypy.semanal_shared import find_dataclass_transform_spec
from mypy.server.subexpr import get_subexpressions
from mypy.server.trigger import make_wildcard_trigger
from mypy.subtypes import is_same_type, is_subtype
from mypy.traverser import all_return_statements
from mypy.types import ProperType, Type, get_proper_type

__all__ = [
    "ATTRS_FROZEN_MAKERS",
    "ATTRS_MAKERS",
    "DATACLASS_MAKERS",
    "MypyDataclass",
    "attr_tag_callback",
    "checked_module",
    "class_trigger",
    "converted_fields",
    "defining_class",
    "dataclass_class_maker_callback",
    "dataclass_tag_callback",
    "enclosing_functions",
    "find_dataclass_transform_spec",
    "get_subexpressions",
    "innermost_function",
    "is_same_type",
    "is_subtype",
    "literal_hash",
    "loaded_module",
    "lookup",
    "named_tuple_base",
    "named_tuple_fields",
    "note",
    "partial_call_callback",
    "partial_new_callback",
    "scope_target",
]

DATACLASS_MAKERS = frozenset(dataclass_makers)
"""The full names of the stdlib's dataclass decorators, as mypy's dataclass plugin claims them."""

ATTRS_MAKERS = frozenset(attr_class_makers | attr_dataclass_makers | attr_define_makers | attr_frozen_makers)
"""The full names of attrs' class decorators, as mypy's attrs plugin claims them."""

ATTRS_FROZEN_MAKERS = frozenset(attr_frozen_makers)
"""Those of them that make a frozen class unless told otherwise."""


def loaded_module(plugin: Plugin, name: str) -> MypyFile | None:
    """The module ``name`` as mypy has loaded it, from source or (without its statements) from the
    cache: what ``Plugin.lookup_fully_qualified`` reads."""
    return (plugin._modules or {}).get(name)


class MypyDataclass(NamedTuple):
    """What mypy's dataclass transform, or its attrs transform, records for a class, read only:
    whether it is frozen and its fields' names (inherited ones first). mypy records it once the
    transform has run; before that, a class a dataclass or attrs decorator applies to is only
    tagged."""

    frozen: bool
    fields: tuple[str, ...]

    @classmethod
    def read(cls, info: TypeInfo) -> MypyDataclass | None:
        data = info.metadata.get("dataclass") or info.metadata.get("attrs")
        if data is None:
            return None
        return cls(bool(data["frozen"]), tuple(attribute["name"] for attribute in data["attributes"]))

    @staticmethod
    def tagged(info: TypeInfo) -> bool:
        """Whether a dataclass or attrs decorator or transform applies to ``info`` (mypy's first pass)."""
        return "dataclass_tag" in info.metadata or "attrs_tag" in info.metadata

    @staticmethod
    def pending(info: TypeInfo) -> bool:
        """Tagged, with the transform still to run."""
        return ("dataclass_tag" in info.metadata and "dataclass" not in info.metadata) or (
            "attrs_tag" in info.metadata and "attrs" not in info.metadata
        )


def converted_fields(info: TypeInfo) -> list[str]:
    """The fields of an attrs class that mypy's attrs transform records with a converter
    (``attrs.field(converter=tuple)``): construction stores what the converter makes of them."""
    return [
        field["name"] for field in info.metadata.get("attrs", {}).get("attributes", []) if field.get("has_converter")
    ]


def defining_class(function: FuncBase) -> TypeInfo | None:
    """The class whose body defines ``function``; None for a function of a module or one nested in
    another function, which mypy gives a placeholder class (with no MRO for one nested in a
    method)."""
    info = function.info
    if not info:
        return None
    try:
        info.mro  # noqa: B018 (mypyc raises for an attribute never set)
    except AttributeError:
        return None
    return info


def named_tuple_base(info: TypeInfo) -> TypeInfo | None:
    """The named tuple ``info`` is or derives from (a subclass of one, such as optax's
    ``GradientTransformationExtraArgs``, is a tuple of the same fields: it hashes, compares and
    flattens as one), None for any other class."""
    return next((base for base in info.mro if base.is_named_tuple), None)


def named_tuple_fields(info: TypeInfo) -> list[str]:
    """The fields mypy's named tuple transform records for ``info`` or the named tuple it derives
    from, in order; none for a class that is no named tuple."""
    base = named_tuple_base(info)
    return list(base.metadata.get("namedtuple", {}).get("fields", [])) if base is not None else []


def class_trigger(info: TypeInfo) -> str:
    """The daemon's trigger that fires when anything in ``info`` changes."""
    return make_wildcard_trigger(info.fullname)


def checked_module(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> MypyFile | None:
    """The module being checked (``TypeChecker.tree``) or analysed (the semantic analyser's
    ``modules[cur_mod_id]``), None where it is not there."""
    tree = getattr(api, "tree", None)
    if tree is None:
        tree = getattr(api, "modules", {}).get(getattr(api, "cur_mod_id", None))
    return tree if isinstance(tree, MypyFile) else None


def written_arguments(ctx: FunctionContext | MethodContext, place: int) -> list[tuple[Expression, Type]]:
    """The arguments a call writes out for its callee's parameter at ``place``, each with its
    type: not ``*args`` or ``**kwargs``, which mypy maps to every parameter they may fill, though
    which one each item fills is not known (``lax.scan(*args, **kwargs)`` forwards what it is
    given)."""
    if place >= len(ctx.args):
        return []
    kinds = ctx.arg_kinds[place]
    return [(expr, typ) for expr, typ, kind in zip(ctx.args[place], ctx.arg_types[place], kinds) if not kind.is_star()]


def enclosing_functions(api: CheckerPluginInterface) -> tuple[str, list[FuncBase]]:
    """The checked module's name and the functions around the expression being checked,
    outermost first (``TypeChecker.tscope``); no functions where the scope is not there."""
    scope = getattr(api, "tscope", None)
    return (scope.module or "", list(scope.functions)) if scope is not None else ("", [])


def innermost_function(api: CheckerPluginInterface) -> FuncDef | None:
    """The innermost function (not a lambda) around the expression being checked."""
    functions = [function for function in enclosing_functions(api)[1] if isinstance(function, FuncDef)]
    return functions[-1] if functions else None


def checked_type(api: CheckerPluginInterface, expr: Expression) -> ProperType | None:
    """The type the checker gave ``expr``, where it has checked it (``TypeChecker.lookup_type_or_none``)."""
    lookup = getattr(api, "lookup_type_or_none", None)
    found = lookup(expr) if lookup is not None else None
    return get_proper_type(found) if found is not None else None


def scope_target(api: CheckerPluginInterface) -> str | None:
    """The daemon's name for the function or module being checked, which a dependency recorded
    now belongs to (``TypeChecker.tscope.current_target``)."""
    scope = getattr(api, "tscope", None)
    return None if scope is None else str(scope.current_target())


def lookup(fullname: str, api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> SymbolTableNode | None:
    """The symbol a full name refers to, in the modules loaded so far (both interfaces hold them,
    neither declares them)."""
    return lookup_fully_qualified(fullname, getattr(api, "modules", {}))


def note(
    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface, message: str, context: Context, code: ErrorCode
) -> None:
    """A ``note:`` line at ``context``, under the error reported there with ``code`` (ignored with
    it): both of mypy's interfaces have ``note``, neither declares it."""
    api.note(message, context, code=code)  # type: ignore[union-attr]


def returned_values(function: FuncItem) -> list[Expression]:
    """The values of ``function``'s ``return`` statements, not those of functions nested in it
    (``mypy.traverser.all_return_statements``)."""
    body = function.body if isinstance(function, LambdaExpr) else function
    return [stmt.expr for stmt in all_return_statements(body) if stmt.expr is not None]
