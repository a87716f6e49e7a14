"""Judgement of a mypy type in a static position: fine, or the rule it breaks.

The twin of the runtime's ``jaxtypes/_classes/declared_types.py`` (``static_problem`` mirrors
``check_static_type``), so the plugin and the runtime reject the same annotations with the same
codes and words. Facts about
other classes come only from their ``TypeInfo`` (MRO, names, ``metadata``), which survive the
cache, parallel workers and the daemon.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mypy.nodes import CallExpr, Expression, RefExpr, TypeInfo, Var
from mypy.plugin import ClassDefContext
from mypy.types import (
    Instance,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    UnionType,
    get_proper_type,
)

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import ADMITTED_UNHASHABLE, PYTREE_DECORATOR, STATIC_DECORATOR
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import STATIC_DYNAMIC_CHILD, STATIC_UNHASHABLE, Rule
from mypy_plugin.dataclass_options import (
    dataclass_frozen,
    deciding_dataclass,
    declared_eq_false,
    hashes_its_fields,
    uncompared,
)
from mypy_plugin.hashing import (
    declares_no_hash,
    defines_hash,
    hash_problem,
    own_hashed_attributes,
    writes_own_hash,
)
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name, is_array_class, read_marker, spell
from mypy_plugin.metadata import ClassFacts, RebuiltAttributes, Role
from mypy_plugin.method_bodies import rebuilt_attributes
from mypy_plugin.mypy_internals import MypyDataclass, converted_fields, named_tuple_fields

UNHASHABLE_IN_A_HASH = frozenset({STATIC_DYNAMIC_CHILD, STATIC_UNHASHABLE})
"""The rules a field breaks when a hash over the fields cannot take its value."""

UNHASHABLE_BUILTINS = frozenset({"builtins.list", "builtins.set", "builtins.dict"})
"""The builtin containers a union may list beside hashable types (``int | list[int]``)."""

JAXTYPES_DECORATORS: dict[str, Role] = {STATIC_DECORATOR: "static", PYTREE_DECORATOR: "pytree"}


OPEN_MODULES = frozenset({"typing", "typing_extensions", "collections.abc", "abc", "builtins"})


def jaxtypes_role(info: TypeInfo) -> Role | None:
    """``"static"`` or ``"pytree"`` for classes decorated by jaxtypes, else None."""
    facts = ClassFacts.read(info)
    return facts.role if facts else None


def is_plain_class(info: TypeInfo) -> bool:
    """A class whose instances are judged by its own ``__hash__`` and ``__eq__`` alone: neither a
    jaxtypes class, nor a dataclass (of any library), nor an enum, nor a builtin or typing class."""
    return not (
        deciding_dataclass(info) is not None or decorated_role(info) or info.is_enum or info.module_name in OPEN_MODULES
    )


def decorated_role(info: TypeInfo) -> Role | None:
    """``jaxtypes_role``, or the role its decorator gives a class whose hook has not run yet
    (judged from a class checked earlier in the same module's first pass)."""
    role = jaxtypes_role(info)
    for decorator in info.defn.decorators if role is None else ():
        role = JAXTYPES_DECORATORS.get(decorator_fullname(decorator) or "")
        if role is not None:
            break
    return role


def decorator_fullname(expr: Expression) -> str | None:
    """The full name of a decorator, called (``@d(...)``) or not (``@d``)."""
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else None


def static_problem(typ: Type, judge: Judge) -> Problem | None:
    """Why a value of type ``typ`` can never be a correct static value, or None if it can be.

    Looks through markers, aliases, unions, tuples and frozensets. Classes that may have
    static subclasses (``object``, protocols, abstract classes) get the benefit of the doubt,
    like at run time, where the value check at construction sees the real object. A recursive
    alias (``Tree = Union[int, tuple["Tree", ...]]``) is looked through once.
    """
    return _problem(typ, judge, frozenset())


def _problem(typ: Type, judge: Judge, seen: frozenset[str]) -> Problem | None:
    """``static_problem`` below the aliases and classes already being looked through (by full
    name), so recursive ones are looked through once."""
    if isinstance(typ, TypeAliasType) and typ.alias is not None:
        if typ.alias.fullname in seen:
            return None
        seen = seen | {typ.alias.fullname}
    _, inner, _ = read_marker(typ)
    proper = get_proper_type(inner)
    if isinstance(proper, UnionType) and judge.lenient:
        found = [
            _problem(item, judge, seen) for item in proper.items if not isinstance(get_proper_type(item), NoneType)
        ]
        if found and all(found):
            return found[0]
        members = [get_proper_type(item) for item in proper.items] if judge.declaration else []
        admitted = (admitted_unhashable(item, members) for item in members if isinstance(item, Instance))
        return next((problem for problem in admitted if problem is not None), None)
    if isinstance(proper, TupleType) and writes_own_hash(proper.partial_fallback.type, judge):
        return hash_problem(proper.partial_fallback.type, judge)
    named = named_tuple_fields(proper.partial_fallback.type) if isinstance(proper, TupleType) else []
    if isinstance(proper, TupleType) and len(named) == len(proper.items):
        owner = class_name(proper.partial_fallback.type)
        found = ((field, _problem(item, judge, seen)) for field, item in zip(named, proper.items))
        return next((phrases.through_part(owner, field, problem) for field, problem in found if problem), None)
    if isinstance(proper, (UnionType, TupleType)):
        return _first_problem(proper.items, judge, seen)
    if not isinstance(proper, Instance) or proper.type.fullname in seen:
        return None
    if proper.type.fullname in ("builtins.tuple", "builtins.frozenset"):
        return _first_problem(proper.args, judge, seen)
    return class_problem(proper, judge, seen | {proper.type.fullname})


def _first_problem(types: list[Type] | tuple[Type, ...], judge: Judge, seen: frozenset[str]) -> Problem | None:
    for item in types:
        found = _problem(item, judge, seen)
        if found is not None:
            return found
    return None


def class_problem(instance: Instance, judge: Judge, seen: frozenset[str] | None = None) -> Problem | None:
    """The rule an instance of ``instance``'s class breaks in a static position, if any; with
    ``seen`` None, only the class's own rules (its hash, equality and frozenness), not its
    fields' or attributes' types."""
    info = instance.type
    judge.looked_through(info)
    name = class_name(info)
    subject = phrases.typed(name)
    if is_array_class(info):
        return phrases.array_type(spell(instance))
    if info.module_name == "builtins" and declares_no_hash(info):
        return phrases.unhashable(phrases.typed(spell(instance)), info.name)
    facts = ClassFacts.read(info)
    role = facts.role if facts else decorated_role(info)
    if role == "pytree":
        return phrases.pytree_type(name)
    if info.fullname == "types.MethodType":
        return phrases.BOUND_METHOD_TYPE
    if facts:
        return None if facts.problem is None else phrases.through_class(name, facts.problem.problem())
    if role == "static":  # its class hook has not run yet; it judges the class itself
        return None
    admitted = admitted_unhashable(instance) if judge.strict_collections else None
    if admitted is not None:
        return admitted
    if is_open(info) or info.module_name in OPEN_MODULES:
        return None
    dataclass = deciding_dataclass(info)
    frozen = None if dataclass is None else dataclass_frozen(dataclass)
    if dataclass is not None and frozen is None:  # another library's, not transformed yet
        return _field_problem(info, judge, seen) if seen is not None and judge.hashes_fields(info) else None
    if frozen is not None and not defines_hash(info):  # else its own hash decides, as for any class
        if (
            dataclass is not None
            and declared_eq_false(dataclass)
            and not any("__eq__" in base.names for base in info.mro[:-1])
        ):
            return None if judge.trusts(info) else phrases.eq_false_dataclass(subject, of=info.fullname)
        if not frozen:
            if judge.trusts(info) or (judge.lenient and hashes_its_fields(dataclass)):
                return None if seen is None else _field_problem(info, judge, seen)
            return phrases.not_frozen(subject, of=info.fullname)
        if not declared_eq_false(dataclass):
            return None if seen is None else _part_problem(info, _dataclass_fields(info), judge, seen)
        return None
    found = hash_problem(info, judge)
    if found is None and seen is not None and defines_hash(info):
        return _field_problem(info, judge, seen)
    return found


def is_open(info: TypeInfo) -> bool:
    """Classes whose instances may well be static (or, traced, JAX types) through a subclass:
    protocols, abstract bases and ``typing``'s classes (the runtime's ``is_open``); and classes
    with a base mypy could not follow (an import it does not see is ``Any``), whose hashing and
    equality that base may define (a pydantic ``BaseModel``'s ``__eq__``)."""
    return (
        info.is_protocol
        or is_abstract(info)
        or info.module_name in ("typing", "typing_extensions")
        or info.fallback_to_any
    )


def is_abstract(info: TypeInfo) -> bool:
    """A class with abstract methods, or declared an abstract base itself (``abc.ABC`` among its
    bases, ``metaclass=ABCMeta``): its values are its subclasses' instances, judged when one is
    seen. A concrete class that derives from one is judged as itself (its metaclass and its MRO
    come with the base); so are typeshed's builtins, declared over the collection ABCs
    (``str(Sequence[str])``)."""
    declared = info.declared_metaclass
    return (
        info.is_abstract
        or any(base.type.fullname == "abc.ABC" for base in info.bases)
        or declared is not None
        and declared.type.fullname == "abc.ABCMeta"
        and info.module_name not in OPEN_MODULES
    )


def admitted_unhashable(instance: Instance, union: Sequence[ProperType] = ()) -> Problem | None:
    """``Sequence[int]``, ``Mapping[str, int]``: an interface whose usual values include an
    unhashable builtin (``names.ADMITTED_UNHASHABLE``), which callers may pass; as one of the
    members of a ``union``, that builtin itself too (``int | list[int]`` admits a list)."""
    info = instance.type
    builtin = ADMITTED_UNHASHABLE.get(info.name) if info.module_name in ("typing", "collections.abc") else None
    if builtin is None and union and info.fullname in UNHASHABLE_BUILTINS:
        builtin = info.name
    if builtin is None:
        return None
    item = spell(instance.args[0]) if instance.args else "object"
    hashable = phrases.spell_variadic_tuple(item) if builtin == "list" else phrases.spell_generic("frozenset", [item])
    members = union or [instance]
    declared = " | ".join(spell(member) for member in members)
    instead = " | ".join(hashable if member is instance else spell(member) for member in members)
    return phrases.admits_unhashable(declared, builtin, instead)


def _field_problem(info: TypeInfo, judge: Judge, seen: frozenset[str]) -> Problem | None:
    """What a class that hashes over its parts holds that its hash cannot take (an array, a list:
    hashing fails, or pins the array): a library's value class or an ``unsafe_hash`` dataclass
    hashes its fields, unless a subclass writes its own (``writes_own_hash``); a hand-written
    ``__hash__`` the attributes it hashes as they are
    (``method_bodies.hashed_attributes``): what it makes of the others, like how a library hashes
    the rest, is its own business, as for any trusted class."""
    if (judge.hashes_fields(info) and not writes_own_hash(info, judge)) or hashes_its_fields(info):
        return _part_problem(info, _dataclass_fields(info), judge, seen, UNHASHABLE_IN_A_HASH)
    if judge.trusts(info):
        return None
    hashed = own_hashed_attributes(info)
    parts = {part: typ for part, typ in instance_attributes(info).items() if part in hashed}
    return _part_problem(info, parts, judge, seen, UNHASHABLE_IN_A_HASH)


def _part_problem(
    info: TypeInfo, parts: dict[str, Type], judge: Judge, seen: frozenset[str], rules: frozenset[Rule] | None = None
) -> Problem | None:
    """The first field or attribute of ``info`` whose type breaks a rule (one of ``rules``, where
    given), worded as the class's. One that construction makes anew (``rebuilt``) holds what
    construction made: not the list a ``Sequence`` declaration admits, where that is a tuple."""
    remade = rebuilt(info)
    as_made = judge._replace(strict_collections=False, declaration=False)
    for part, typ in parts.items():
        found = _problem(typ, as_made if part in remade else judge, seen)
        if found is not None and (rules is None or found.rule in rules):
            return phrases.through_part(class_name(info), part, found)
    return None


def record_rebuilt_attributes(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the attributes its construction makes anew."""
    info = ctx.cls.info
    RebuiltAttributes.erase(info)
    names = rebuilt_attributes(ctx.cls)
    if names:
        RebuiltAttributes(tuple(names)).write(info)


def rebuilt(info: TypeInfo) -> frozenset[str]:
    """The attributes the construction of ``info`` or of a base makes anew (``rebuilt_attributes``,
    and the attrs fields given a converter)."""
    return frozenset(
        name
        for base in info.mro
        for name in (*getattr(RebuiltAttributes.read(base), "names", ()), *converted_fields(base))
    )


def _dataclass_fields(info: TypeInfo) -> dict[str, Type]:
    """A transformed dataclass's fields and their declared types (inherited ones too), also for
    an undecorated subclass, whose instances hash and compare over its base's fields; not those
    left out of ``__eq__`` and ``__hash__`` (``field(compare=False)``)."""
    decider = deciding_dataclass(info)
    dataclass = None if decider is None else MypyDataclass.read(decider)
    if dataclass is not None:
        names: Iterable[str] = dataclass.fields
    else:  # not transformed yet: the annotated attributes it will make fields, bases' first
        names = dict.fromkeys(
            name
            for base in reversed(info.mro[:-1])
            if MypyDataclass.tagged(base)
            for name, symbol in base.names.items()
            if isinstance(symbol.node, Var) and not symbol.node.is_inferred and not symbol.node.is_classvar
        )
    fields = {}
    left_out = uncompared(info)
    for name in (name for name in names if name not in left_out):
        symbol = info.get(name)
        if symbol is not None and isinstance(symbol.node, Var) and symbol.node.type is not None:
            fields[name] = symbol.node.type
    return fields


def instance_attributes(info: TypeInfo) -> dict[str, Type]:
    """The instance attributes mypy knows the types of, in the class and its bases."""
    found: dict[str, Type] = {}
    for base in reversed(info.mro[:-1]):
        for part, symbol in base.names.items():
            node = symbol.node
            if isinstance(node, Var) and node.type is not None and not node.is_classvar and not node.is_property:
                found[part] = node.type
    return found
