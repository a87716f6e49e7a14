"""Markers and spelling in declared types: ``Static[...]``/``Dynamic[...]`` read from a mypy type,
and a type (or a name in the code) spelled as messages spell it.

The twin of the runtime's ``jaxtypes/_classes/markers.py``: ``read_marker`` finds the same
misuses (both markers, a marker nested inside another type), and ``spell`` writes a type as the
runtime's ``spell`` writes the annotation (both through ``phrases.spell_*``), so the two halves'
messages agree word for word.
"""

from __future__ import annotations

from mypy.nodes import Expression, FuncBase, MemberExpr, NameExpr, TypeInfo
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeType,
    UnionType,
    get_proper_type,
)

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import ARRAY_CLASSES, DYNAMIC_MARKER, STATIC_MARKER
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.positions import MarkerKind

MARKER_ALIASES: dict[str, MarkerKind] = {STATIC_MARKER: "static", DYNAMIC_MARKER: "dynamic"}


_ALIAS_DEPTH = 32
"""Alias chains longer than this are recursive aliases; stop expanding them."""


def read_marker(typ: Type) -> tuple[MarkerKind | None, Type, Problem | None]:
    """Split a declared type into its outermost marker, the type inside and the problem of a misused marker, if any.

    Mirrors ``jaxtypes._classes.markers.read_marker``: both markers at once, or a marker nested inside
    another type, is ``marker-misuse``. Walks user aliases (``IntS = Static[int]``).
    """
    kinds: list[MarkerKind] = []
    inner = typ
    for _ in range(_ALIAS_DEPTH):
        if not isinstance(inner, TypeAliasType) or inner.alias is None:
            break
        kind = MARKER_ALIASES.get(inner.alias.fullname)
        if kind is None:
            inner = inner._expand_once()
        else:
            kinds.append(kind)
            inner = inner.args[0] if inner.args else AnyType(TypeOfAny.from_omitted_generics)
    if len(set(kinds)) > 1:
        return kinds[0], inner, phrases.BOTH_MARKERS
    nested = nested_marker(inner)
    if nested is not None:
        return (kinds[0] if kinds else None), inner, phrases.nested_marker(nested, spell(inner))
    return (kinds[0] if kinds else None), inner, None


def nested_marker(typ: Type, depth: int = 0) -> MarkerKind | None:
    """The first marker found anywhere inside ``typ``'s type arguments."""
    if depth > _ALIAS_DEPTH:
        return None
    for arg in _type_arguments(typ):
        if isinstance(arg, TypeAliasType) and arg.alias is not None:
            kind = MARKER_ALIASES.get(arg.alias.fullname)
            if kind is not None:
                return kind
        found = nested_marker(arg, depth + 1)
        if found is not None:
            return found
    return None


def _type_arguments(typ: Type) -> list[Type]:
    if isinstance(typ, TypeAliasType):
        expanded = typ._expand_once()
        return [expanded] if isinstance(expanded, TypeAliasType) else _type_arguments(expanded)
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return list(proper.items)
    if isinstance(proper, TupleType):
        return list(proper.items)
    if isinstance(proper, Instance):
        return list(proper.args)
    if isinstance(proper, CallableType):
        return [*proper.arg_types, proper.ret_type]
    if isinstance(proper, TypeType):
        return [proper.item]
    return []


def class_name(info: TypeInfo) -> str:
    """The class's name as the runtime writes it: its qualified name (``Outer.Inner``), without
    the line mypy appends to a class defined in a function."""
    return info.fullname[len(info.module_name) + 1 :].partition("@")[0]


def function_name(function: FuncBase) -> str:
    """A function's name as the runtime writes it: ``Class.method`` for a method."""
    return f"{class_name(function.info)}.{function.name}" if function.info else function.name


def written(expr: Expression) -> str:
    """A name or attribute chain as the code writes it (``optimizers.sgd``, ``self.env``)."""
    if isinstance(expr, MemberExpr):
        return f"{written(expr.expr)}.{expr.name}"
    return expr.name if isinstance(expr, NameExpr) else "an instance"


def is_array_class(info: TypeInfo) -> bool:
    """``jax.Array``, ``numpy.ndarray`` and their subclasses."""
    return any(base.fullname in ARRAY_CLASSES for base in info.mro)


def is_array_type(typ: Type) -> bool:
    """An instance type of an array class (``is_array_class``)."""
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and is_array_class(proper.type)


def spell(typ: Type) -> str:
    """A type spelled as the runtime spells its annotation (``jaxtypes._classes.markers.spell``, with
    ``phrases``): ``jax.Array``, ``list[int | None]``, ``Static[int]``, ``pkg.Config``.

    A recursive alias is spelled out once, then by its name.
    """
    return _spell(typ, frozenset())


def _spell(typ: Type, aliases: frozenset[str]) -> str:
    def spell(arg: Type) -> str:
        return _spell(arg, aliases)

    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in MARKER_ALIASES:
            inner = typ.args[0] if typ.args else AnyType(TypeOfAny.from_omitted_generics)
            return phrases.spell_marked(MARKER_ALIASES[typ.alias.fullname], spell(inner))
        if typ.alias.fullname in aliases:
            return typ.alias.name
        aliases = aliases | {typ.alias.fullname}
    proper: ProperType = get_proper_type(typ)
    if isinstance(proper, Instance):
        info = proper.type
        if is_array_class(info) and info.module_name.startswith(("jax", "numpy")):
            return phrases.spell_array(info.name)
        args = [] if is_bare(proper) else [spell(arg) for arg in proper.args]
        if info.fullname == "builtins.tuple" and len(args) == 1:
            return phrases.spell_variadic_tuple(args[0])
        return phrases.spell_generic(phrases.spell_class(info.module_name, class_name(info)), args)
    if isinstance(proper, TupleType):
        return phrases.spell_generic("tuple", [spell(item) for item in proper.items])
    if isinstance(proper, UnionType):
        return phrases.spell_union([spell(item) for item in proper.items])
    if isinstance(proper, CallableType):
        parameters = None if proper.is_ellipsis_args else [spell(arg) for arg in proper.arg_types]
        return phrases.spell_callable(parameters, spell(proper.ret_type))
    if isinstance(proper, TypeType):
        return phrases.spell_generic("type", [spell(proper.item)])
    if isinstance(proper, NoneType):
        return "None"
    return str(proper)


def is_bare(instance: Instance) -> bool:
    """Written without type arguments (mypy fills them with ``Any`` from omitted generics)."""
    return all(
        isinstance(arg, AnyType) and arg.type_of_any == TypeOfAny.from_omitted_generics
        for arg in map(get_proper_type, instance.args)
    )
