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

from mypy.nodes import TypeInfo, Var
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

from jaxtypes.markers import MarkerKind
from jaxtypes.rules import (
    MARKER_MISUSE,
    STATIC_BOUND_METHOD,
    STATIC_DYNAMIC_CHILD,
    STATIC_IDENTITY_HASH,
    STATIC_NOT_FROZEN,
    STATIC_UNHASHABLE,
    RULES_BY_CODE,
    UNHASHABLE_FIXES as BUILTIN_UNHASHABLE_FIXES,
    Rule,
)
from mypy_plugin.stdlib_dataclasses import compares_by_identity
from mypy_plugin.trusted_types import is_trusted

MARKER_ALIASES: dict[str, MarkerKind] = {
    "jaxtypes.markers.Static": "static",
    "jaxtypes.markers.Dynamic": "dynamic",
}

ARRAY_CLASSES = frozenset({"jax._src.basearray.Array", "jax.Array", "numpy.ndarray"})

METADATA_KEY = "jaxtypes"
"""``info.metadata`` key of the facts the plugin records about each jaxtypes class."""

UNHASHABLE_FIXES = {f"builtins.{name}": fix for name, fix in BUILTIN_UNHASHABLE_FIXES.items()}

OPEN_MODULES = frozenset({"typing", "typing_extensions", "collections.abc", "abc", "builtins"})

_ALIAS_DEPTH = 32
"""Alias chains longer than this are recursive aliases; stop expanding them."""


class Finding(NamedTuple):
    """A rule broken by a type: the ``what`` and optional ``fix`` of ``Rule.message``."""

    rule: Rule
    what: str
    fix: str | None = None

    def message(self, where: str) -> str:
        return self.rule.message(where, self.what, self.fix)


class NotReady(Exception):
    """A class the type mentions has not been processed by the plugin yet (defer the caller)."""


LookedThrough = Callable[[TypeInfo], None]
"""Called with every class whose facts a classification used (dependencies, readiness)."""


class Judge(NamedTuple):
    """What classifying a type consults besides the type itself."""

    api: CheckerPluginInterface | SemanticAnalyzerPluginInterface
    """mypy's checker or semantic analyser: the settings and the loaded modules."""
    looked_through: LookedThrough

    def trusts(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a trusted static type (``trusted_types``)."""
        return is_trusted(info, self.api)


def jaxtypes_kind(info: TypeInfo) -> str | None:
    """``"static"`` or ``"pytree"`` for classes decorated by jaxtypes, else None."""
    facts = info.metadata.get(METADATA_KEY)
    return facts.get("kind") if facts else None


def read_marker(typ: Type) -> tuple[MarkerKind | None, Type, Finding | None]:
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
        misuse = Finding(
            MARKER_MISUSE,
            "is annotated both Static[...] and Dynamic[...]",
            "keep one marker: Static for hashable settings, Dynamic for arrays",
        )
        return kinds[0], inner, misuse
    nested = nested_marker(inner)
    if nested is not None:
        misuse = Finding(
            MARKER_MISUSE, f"has {nested.capitalize()}[...] nested inside {describe(inner)}"
        )
        return (kinds[0] if kinds else None), inner, misuse
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


def static_violation(typ: Type, judge: Judge) -> Finding | None:
    """Why a value of type ``typ`` can never be a correct static value, or None if it can be.

    Looks through markers, aliases, unions, tuples and frozensets. Classes that may have
    static subclasses (``object``, protocols, abstract classes) get the benefit of the doubt,
    like at run time, where the value check at construction sees the real object. A recursive
    alias (``Tree = Union[int, tuple["Tree", ...]]``) is looked through once.
    """
    return _violation(typ, judge, frozenset())


def _violation(typ: Type, judge: Judge, aliases: frozenset[str]) -> Finding | None:
    """``static_violation`` below the aliases already being expanded (by full name)."""
    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in aliases:
            return None
        aliases = aliases | {typ.alias.fullname}
    _, inner, _ = read_marker(typ)
    proper = get_proper_type(inner)
    if isinstance(proper, (UnionType, TupleType)):
        return _first_violation(proper.items, judge, aliases)
    if not isinstance(proper, Instance):
        return None
    if proper.type.fullname in ("builtins.tuple", "builtins.frozenset"):
        return _first_violation(proper.args, judge, aliases)
    return class_violation(proper, judge)


def _first_violation(
    types: list[Type] | tuple[Type, ...], judge: Judge, aliases: frozenset[str]
) -> Finding | None:
    for item in types:
        found = _violation(item, judge, aliases)
        if found is not None:
            return found
    return None


def class_violation(instance: Instance, judge: Judge) -> Finding | None:
    """The rule an instance of ``instance``'s class breaks in a static position, if any."""
    info = instance.type
    judge.looked_through(info)
    if info.fullname in UNHASHABLE_FIXES:
        return Finding(
            STATIC_UNHASHABLE,
            f"is typed {describe(instance)}, which is unhashable",
            UNHASHABLE_FIXES[info.fullname],
        )
    if is_array_class(info):
        return Finding(STATIC_DYNAMIC_CHILD, f"is typed {describe(instance)}, an array type")
    facts = info.metadata.get(METADATA_KEY)
    if facts and facts["kind"] == "pytree":
        return Finding(STATIC_DYNAMIC_CHILD, f"is typed {info.name}, a pytree_dataclass")
    if info.fullname == "types.MethodType":
        return Finding(STATIC_BOUND_METHOD, "is typed types.MethodType, a bound method")
    if facts:
        violation = facts.get("violation")
        if violation is None:
            return None
        code, sentence, fix = violation
        return Finding(RULES_BY_CODE[code], f"is typed {info.name}, and {sentence}", fix)
    if info.is_protocol or info.is_abstract or info.module_name in OPEN_MODULES:
        return None
    dataclass = info.metadata.get("dataclass")
    if dataclass is not None:
        if not dataclass["frozen"]:
            if judge.trusts(info):
                return None
            return Finding(STATIC_NOT_FROZEN, f"is typed {info.name}, a dataclass that is not frozen")
        if not compares_by_identity(info):
            return None
        if not any("__eq__" in base.names for base in info.mro[:-1]):
            return _identity_hash(info, judge)
    return _hash_violation(info, judge)


def _hash_violation(info: TypeInfo, judge: Judge) -> Finding | None:
    """Python's rule: the first class in the MRO that defines ``__hash__`` or ``__eq__`` decides;
    a class whose ``__hash__`` comes without any ``__eq__`` still compares by identity."""
    for base in info.mro:
        judge.looked_through(base)
        if "__hash__" in base.names:
            if base.fullname == "builtins.object":
                return _identity_hash(info, judge)
            node = base.names["__hash__"].node
            if isinstance(node, Var) and isinstance(get_proper_type(node.type), NoneType):
                return Finding(STATIC_UNHASHABLE, f"is typed {info.name}, which is unhashable")
            if _compares_by_identity(info, base, judge):
                what = f"is typed {info.name}, which compares by identity (it defines __hash__ but not __eq__)"
                return None if judge.trusts(info) else Finding(STATIC_IDENTITY_HASH, what)
            return None
        if "__eq__" in base.names and base.fullname != "builtins.object":
            return Finding(
                STATIC_UNHASHABLE,
                f"is typed {info.name}, which is unhashable (it defines __eq__ without __hash__)",
            )
    return None


def _compares_by_identity(info: TypeInfo, hashed_by: TypeInfo, judge: Judge) -> bool:
    """No class before ``object`` defines ``__eq__``, so ``hashed_by``'s ``__hash__`` comes with
    identity comparison. Judged only where ``hashed_by`` is source code: a stub may leave out an
    ``__eq__`` the class has (typeshed's ``PurePath``), and enum members are singletons."""
    if info.is_enum or any("__eq__" in base.names for base in info.mro[:-1]):
        return False
    modules = getattr(judge.api, "modules", {})  # both of mypy's interfaces hold them; not declared
    module = modules.get(hashed_by.module_name)
    return module is not None and not module.is_stub


def _identity_hash(info: TypeInfo, judge: Judge) -> Finding | None:
    """``static-identity-hash``, unless the class's identity is its value."""
    if judge.trusts(info):
        return None
    return Finding(STATIC_IDENTITY_HASH, f"is typed {info.name}, which hashes by identity")


def is_array_class(info: TypeInfo) -> bool:
    """``jax.Array``, ``numpy.ndarray`` and their subclasses."""
    return any(base.fullname in ARRAY_CLASSES for base in info.mro)


def describe(typ: Type) -> str:
    """A short, runtime-like spelling of a type: ``jax.Array``, ``list[int]``, ``pkg.Config``.

    A recursive alias is spelled out once, then by its name.
    """
    return _describe(typ, frozenset())


def _describe(typ: Type, aliases: frozenset[str]) -> str:
    def describe(arg: Type) -> str:
        return _describe(arg, aliases)

    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in MARKER_ALIASES:
            kind = MARKER_ALIASES[typ.alias.fullname]
            return f"{kind.capitalize()}[{', '.join(describe(arg) for arg in typ.args)}]"
        if typ.alias.fullname in aliases:
            return typ.alias.name
        aliases = aliases | {typ.alias.fullname}
    proper: ProperType = get_proper_type(typ)
    if isinstance(proper, Instance):
        info = proper.type
        if is_array_class(info):
            return "numpy.ndarray" if info.name == "ndarray" else f"jax.{info.name}"
        if info.module_name == "builtins":
            name = info.name
        else:
            name = info.fullname
        args = f"[{', '.join(describe(arg) for arg in proper.args)}]" if proper.args else ""
        return name + args
    if isinstance(proper, TupleType):
        return f"tuple[{', '.join(describe(item) for item in proper.items)}]"
    if isinstance(proper, UnionType):
        return " | ".join(describe(item) for item in proper.items)
    if isinstance(proper, NoneType):
        return "None"
    return str(proper)
