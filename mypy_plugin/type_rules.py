"""Classification of a mypy type in a static position: fine, or the rule it breaks.

The declared-type twin of ``jaxtypes/annotations.py`` (``read_marker`` mirrors
``jaxtypes.markers.read_marker``, ``static_violation`` mirrors ``check_static_type``), so the
plugin and the runtime reject the same annotations with the same codes and words. Facts about
other classes come only from their ``TypeInfo`` (MRO, names, ``metadata``), which survive the
cache, parallel workers and the daemon.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from mypy.nodes import CallExpr, Decorator, Expression, FuncDef, RefExpr, TypeInfo, Var
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface
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

from jaxtypes import phrases
from jaxtypes.jax_internals import ARRAY_CLASSES
from jaxtypes.phrases import Problem
from jaxtypes.positions import MarkerKind
from mypy_plugin.metadata import ClassFacts, Kind
from mypy_plugin.mypy_internals import MypyDataclass
from mypy_plugin.stdlib_dataclasses import compares_by_identity, dataclass_frozen, hashes_its_fields
from mypy_plugin.trusted_types import is_trusted

MARKER_ALIASES: dict[str, MarkerKind] = {
    "jaxtypes.markers.Static": "static",
    "jaxtypes.markers.Dynamic": "dynamic",
}


STATIC_DECORATOR = "jaxtypes.static.static_dataclass"
PYTREE_DECORATOR = "jaxtypes.pytree.pytree_dataclass"
JAXTYPES_DECORATORS: dict[str, Kind] = {STATIC_DECORATOR: "static", PYTREE_DECORATOR: "pytree"}


OPEN_MODULES = frozenset({"typing", "typing_extensions", "collections.abc", "abc", "builtins"})

_ALIAS_DEPTH = 32
"""Alias chains longer than this are recursive aliases; stop expanding them."""


class NotReady(Exception):
    """A class the type mentions has not been processed by the plugin yet (defer the caller)."""


LookedThrough = Callable[[TypeInfo], None]
"""Called with every class whose facts a classification used (dependencies, readiness)."""


class Judge(NamedTuple):
    """What classifying a type consults besides the type itself."""

    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface
    """mypy's checker or semantic analyser: the settings and the loaded modules."""
    looked_through: LookedThrough
    lenient: bool = False
    """Judge a union by its best member, where the value (which a runtime check does not see)
    may well be that one: other libraries' fields, plain ``jax.jit`` arguments. jaxtypes' own
    classes judge every member, as the runtime does."""

    def trusts(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a trusted static type (``trusted_types``)."""
        return is_trusted(info, self.api)


def jaxtypes_kind(info: TypeInfo) -> Kind | None:
    """``"static"`` or ``"pytree"`` for classes decorated by jaxtypes, else None."""
    facts = ClassFacts.read(info)
    return facts.kind if facts else None


def is_plain_class(info: TypeInfo) -> bool:
    """A class whose instances are judged by its own ``__hash__`` and ``__eq__`` alone: neither a
    jaxtypes class, nor a dataclass (of any library), nor an enum, nor a builtin or typing class."""
    dataclass = MypyDataclass.read(info) is not None or MypyDataclass.tagged(info)
    return not (dataclass or decorated_kind(info) or info.is_enum or info.module_name in OPEN_MODULES)


def decorated_kind(info: TypeInfo) -> Kind | None:
    """``jaxtypes_kind``, or the kind its decorator gives a class whose hook has not run yet
    (judged from a class checked earlier in the same module's first pass)."""
    kind = jaxtypes_kind(info)
    for decorator in info.defn.decorators if kind is None else ():
        kind = JAXTYPES_DECORATORS.get(decorator_fullname(decorator) or "")
        if kind is not None:
            break
    return kind


def decorator_fullname(expr: Expression) -> str | None:
    """The full name of a class decorator, called (``@d(...)``) or not (``@d``)."""
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else None


def read_marker(typ: Type) -> tuple[MarkerKind | None, Type, Problem | None]:
    """Split a declared type into its outermost marker, the type inside and a misuse, if any.

    Mirrors ``jaxtypes.markers.read_marker``: both markers at once, or a marker nested inside
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
        return (kinds[0] if kinds else None), inner, phrases.nested_marker(nested, describe(inner))
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


def static_violation(typ: Type, judge: Judge) -> Problem | None:
    """Why a value of type ``typ`` can never be a correct static value, or None if it can be.

    Looks through markers, aliases, unions, tuples and frozensets. Classes that may have
    static subclasses (``object``, protocols, abstract classes) get the benefit of the doubt,
    like at run time, where the value check at construction sees the real object. A recursive
    alias (``Tree = Union[int, tuple["Tree", ...]]``) is looked through once.
    """
    return _violation(typ, judge, frozenset())


def _violation(typ: Type, judge: Judge, seen: frozenset[str]) -> Problem | None:
    """``static_violation`` below the aliases and classes already being looked through (by full
    name), so recursive ones are looked through once."""
    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in seen:
            return None
        seen = seen | {typ.alias.fullname}
    _, inner, _ = read_marker(typ)
    proper = get_proper_type(inner)
    if isinstance(proper, UnionType) and judge.lenient:
        found = [
            _violation(item, judge, seen) for item in proper.items if not isinstance(get_proper_type(item), NoneType)
        ]
        return found[0] if found and all(found) else None
    if isinstance(proper, (UnionType, TupleType)):
        return _first_violation(proper.items, judge, seen)
    if not isinstance(proper, Instance) or proper.type.fullname in seen:
        return None
    if proper.type.fullname in ("builtins.tuple", "builtins.frozenset"):
        return _first_violation(proper.args, judge, seen)
    return class_violation(proper, judge, seen | {proper.type.fullname})


def _first_violation(types: list[Type] | tuple[Type, ...], judge: Judge, seen: frozenset[str]) -> Problem | None:
    for item in types:
        found = _violation(item, judge, seen)
        if found is not None:
            return found
    return None


def class_violation(instance: Instance, judge: Judge, seen: frozenset[str] | None = None) -> Problem | None:
    """The rule an instance of ``instance``'s class breaks in a static position, if any; with
    ``seen`` None, only the class's own rules (its hash, equality and frozenness), not its
    fields' or attributes' types."""
    info = instance.type
    judge.looked_through(info)
    name = class_name(info)
    subject = phrases.typed(name)
    if is_array_class(info):
        return phrases.array_type(describe(instance))
    if info.module_name == "builtins" and _declares_no_hash(info):
        return phrases.unhashable(phrases.typed(describe(instance)), info.name)
    facts = ClassFacts.read(info)
    kind = facts.kind if facts else decorated_kind(info)
    if kind == "pytree":
        return phrases.pytree_type(name)
    if info.fullname == "types.MethodType":
        return phrases.BOUND_METHOD_TYPE
    if facts:
        return None if facts.violation is None else phrases.through_class(name, facts.violation.problem())
    if kind == "static":  # its class hook has not run yet; it judges the class itself
        return None
    if info.is_protocol or info.is_abstract or info.module_name in OPEN_MODULES:
        return None
    frozen = dataclass_frozen(info)
    if frozen is None and MypyDataclass.tagged(info):  # another library's, not transformed yet
        return None
    if frozen is not None and not defines_hash(info):  # else its own hash decides, as for any class
        if not frozen:
            if judge.trusts(info):
                return None
            return phrases.not_frozen(subject)
        if not compares_by_identity(info):
            return None if seen is None else _part_violation(info, _dataclass_fields(info), judge, seen)
        if not any("__eq__" in base.names for base in info.mro[:-1]):
            return _identity_hash(info, judge)
        return None
    found = _hash_violation(info, judge)
    if found is None and seen is not None and defines_hash(info) and not judge.trusts(info):
        arrays = {part: typ for part, typ in _attributes(info).items() if _is_array(typ)}
        return _part_violation(info, arrays, judge, seen)
    return found


def _part_violation(info: TypeInfo, parts: dict[str, Type], judge: Judge, seen: frozenset[str]) -> Problem | None:
    """The first field or attribute of ``info`` whose type breaks a rule, worded as the class's."""
    for part, typ in parts.items():
        found = _violation(typ, judge, seen)
        if found is not None:
            return phrases.through_part(class_name(info), part, found)
    return None


def _dataclass_fields(info: TypeInfo) -> dict[str, Type]:
    """A transformed dataclass's fields and their declared types (inherited ones too)."""
    dataclass = MypyDataclass.read(info)
    fields = {}
    for name in dataclass.fields if dataclass is not None else ():
        symbol = info.get(name)
        if symbol is not None and isinstance(symbol.node, Var) and symbol.node.type is not None:
            fields[name] = symbol.node.type
    return fields


def _attributes(info: TypeInfo) -> dict[str, Type]:
    """The instance attributes mypy knows the types of, in the class and its bases."""
    found: dict[str, Type] = {}
    for base in reversed(info.mro[:-1]):
        for part, symbol in base.names.items():
            node = symbol.node
            if isinstance(node, Var) and node.type is not None and not node.is_classvar and not node.is_property:
                found[part] = node.type
    return found


def _is_array(typ: Type) -> bool:
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and is_array_class(proper.type)


def defines_hash(info: TypeInfo) -> bool:
    """The class or a base (not ``object``) writes its own ``__hash__`` (a dataclass's
    ``unsafe_hash`` is not its own: it hashes fields that can change)."""
    for base in info.mro[:-1]:
        symbol = base.names.get("__hash__")
        if symbol is not None and isinstance(symbol.node, (FuncDef, Decorator)):
            return not hashes_its_fields(info)
    return False


def _declares_no_hash(info: TypeInfo) -> bool:
    """The first class in the MRO that mentions ``__hash__`` sets it to None (a stub's
    ``__hash__: ClassVar[None]``, version by version: ``slice`` before Python 3.12)."""
    for base in info.mro:
        if "__hash__" in base.names:
            node = base.names["__hash__"].node
            return isinstance(node, Var) and isinstance(get_proper_type(node.type), NoneType)
    return False


def _hash_violation(info: TypeInfo, judge: Judge) -> Problem | None:
    """Python's rule: the first class in the MRO that defines ``__hash__`` or ``__eq__`` decides;
    a class whose ``__hash__`` comes without any ``__eq__`` still compares by identity."""
    subject = phrases.typed(class_name(info))
    for base in info.mro:
        judge.looked_through(base)
        if "__hash__" in base.names:
            if base.fullname == "builtins.object":
                return _identity_hash(info, judge)
            if _declares_no_hash(base):
                return phrases.unhashable(subject)
            if _compares_by_identity(info, base, judge):
                return None if judge.trusts(info) else phrases.compares_by_identity(subject)
            return None
        if "__eq__" in base.names and base.fullname != "builtins.object":
            return phrases.eq_without_hash(subject)
    return None


def _compares_by_identity(info: TypeInfo, hashed_by: TypeInfo, judge: Judge) -> bool:
    """No class before ``object`` defines ``__eq__`` (nor is a dataclass, whose ``__eq__`` mypy
    does not write down), so ``hashed_by``'s ``__hash__`` comes with identity comparison. Judged
    only where ``hashed_by`` is source code: a stub may leave out an ``__eq__`` the class has
    (typeshed's ``PurePath``), and enum members are singletons."""
    if info.is_enum or any(_defines_eq(base) for base in info.mro[:-1]):
        return False
    modules = getattr(judge.api, "modules", {})  # both of mypy's interfaces hold them; not declared
    module = modules.get(hashed_by.module_name)
    return module is not None and not module.is_stub


def _defines_eq(info: TypeInfo) -> bool:
    """The class writes ``__eq__``, or is a dataclass that compares its fields."""
    dataclass = dataclass_frozen(info) is not None or MypyDataclass.read(info) is not None
    return "__eq__" in info.names or (dataclass and not compares_by_identity(info))


def _identity_hash(info: TypeInfo, judge: Judge) -> Problem | None:
    """``static-identity-hash``, unless the class's identity is its value."""
    if judge.trusts(info):
        return None
    return phrases.hashes_by_identity(phrases.typed(class_name(info)))


def class_name(info: TypeInfo) -> str:
    """The class's name as the runtime writes it: its qualified name (``Outer.Inner``), without
    the line mypy appends to a class defined in a function."""
    return info.fullname[len(info.module_name) + 1 :].partition("@")[0]


def is_array_class(info: TypeInfo) -> bool:
    """``jax.Array``, ``numpy.ndarray`` and their subclasses."""
    return any(base.fullname in ARRAY_CLASSES for base in info.mro)


def describe(typ: Type) -> str:
    """A type spelled as the runtime spells its annotation (``jaxtypes.markers.spell``, with
    ``phrases``): ``jax.Array``, ``list[int | None]``, ``Static[int]``, ``pkg.Config``.

    A recursive alias is spelled out once, then by its name.
    """
    return _describe(typ, frozenset())


def _describe(typ: Type, aliases: frozenset[str]) -> str:
    def describe(arg: Type) -> str:
        return _describe(arg, aliases)

    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in MARKER_ALIASES:
            inner = typ.args[0] if typ.args else AnyType(TypeOfAny.from_omitted_generics)
            return phrases.spell_marked(MARKER_ALIASES[typ.alias.fullname], describe(inner))
        if typ.alias.fullname in aliases:
            return typ.alias.name
        aliases = aliases | {typ.alias.fullname}
    proper: ProperType = get_proper_type(typ)
    if isinstance(proper, Instance):
        info = proper.type
        if is_array_class(info) and info.module_name.startswith(("jax", "numpy")):
            return phrases.spell_array(info.name)
        args = [] if is_bare(proper) else [describe(arg) for arg in proper.args]
        if info.fullname == "builtins.tuple" and len(args) == 1:
            return phrases.spell_variadic_tuple(args[0])
        return phrases.spell_generic(phrases.spell_class(info.module_name, class_name(info)), args)
    if isinstance(proper, TupleType):
        return phrases.spell_generic("tuple", [describe(item) for item in proper.items])
    if isinstance(proper, UnionType):
        return phrases.spell_union([describe(item) for item in proper.items])
    if isinstance(proper, CallableType):
        parameters = None if proper.is_ellipsis_args else [describe(arg) for arg in proper.arg_types]
        return phrases.spell_callable(parameters, describe(proper.ret_type))
    if isinstance(proper, TypeType):
        return phrases.spell_generic("type", [describe(proper.item)])
    if isinstance(proper, NoneType):
        return "None"
    return str(proper)


def is_bare(instance: Instance) -> bool:
    """Written without type arguments (mypy fills them with ``Any`` from omitted generics)."""
    return all(
        isinstance(arg, AnyType) and arg.type_of_any == TypeOfAny.from_omitted_generics
        for arg in map(get_proper_type, instance.args)
    )
