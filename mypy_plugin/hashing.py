"""How instances of a class hash and compare, read from its declaration: by value, by identity, or
not at all.

The twin of the runtime's ``jaxtypes/_classes/hashing.py``, on mypy's facts: Python's rule that
the first class in the MRO defining ``__hash__`` or ``__eq__`` decides, a dataclass's generated
methods (``dataclass_options``), and trust (``trusted_types``).
"""

from __future__ import annotations

from mypy.nodes import Decorator, FuncDef, TypeInfo, Var
from mypy.plugin import ClassDefContext
from mypy.types import NoneType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.dataclass_options import dataclass_frozen, declared_eq_false, hashes_its_fields
from mypy_plugin.judge import Judge
from mypy_plugin.markers import class_name
from mypy_plugin.metadata import HashedAttributes
from mypy_plugin.method_bodies import hashed_attributes, instance_methods
from mypy_plugin.mypy_internals import MypyDataclass


def defines_hash(info: TypeInfo) -> bool:
    """The class or a base (not ``object``) writes its own ``__hash__`` (a dataclass's
    ``unsafe_hash`` is not its own: it hashes fields that can change)."""
    return _hashed_by(info) is not None and not hashes_its_fields(info)


def writes_own_hash(info: TypeInfo, judge: Judge) -> bool:
    """A class that would hash what it holds (a named tuple, as ``tuple``; a library's value
    class) but whose ``__hash__`` is written below that base, and decides, as for any class
    (tachys's ``Lattice``, a named tuple of arrays, hashes ``id(self)``)."""
    writer = _hashed_by(info)
    return writer is not None and any(
        base.fullname == "builtins.tuple" or judge.hashes_fields(base) for base in writer.mro[1:]
    )


def _hashed_by(info: TypeInfo) -> TypeInfo | None:
    """The class in the MRO (not ``object``) that writes the ``__hash__`` instances use. A class
    holding another's (mypy's attrs transform gives a hashable attrs class ``object.__hash__``,
    where attrs makes one over the fields) writes none of its own."""
    for base in info.mro[:-1]:
        symbol = base.names.get("__hash__")
        if symbol is not None and isinstance(symbol.node, (FuncDef, Decorator)) and symbol.node.info is base:
            return base
    return None


def record_hashed_attributes(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the attributes its own ``__hash__`` hashes as they are."""
    info = ctx.cls.info
    HashedAttributes.erase(info)
    for method in instance_methods(ctx.cls):
        if method.name == "__hash__":
            HashedAttributes(tuple(hashed_attributes(method))).write(info)


def own_hashed_attributes(info: TypeInfo) -> tuple[str, ...]:
    """The attributes the class's own ``__hash__`` hashes as they are (none for a ``__hash__``
    whose body was never read: a stub's)."""
    base = _hashed_by(info)
    record = None if base is None or hashes_its_fields(info) else HashedAttributes.read(base)
    return () if record is None else record.names


def declares_no_hash(info: TypeInfo) -> bool:
    """The first class in the MRO that mentions ``__hash__`` sets it to None (a stub's
    ``__hash__: ClassVar[None]``, version by version: ``slice`` before Python 3.12)."""
    for base in info.mro:
        if "__hash__" in base.names:
            node = base.names["__hash__"].node
            return isinstance(node, Var) and isinstance(get_proper_type(node.type), NoneType)
    return False


def hash_problem(info: TypeInfo, judge: Judge) -> Problem | None:
    """Python's rule: the first class in the MRO that defines ``__hash__`` or ``__eq__`` decides;
    a class whose ``__hash__`` comes without any ``__eq__`` still compares by identity."""
    subject = phrases.typed(class_name(info))
    for base in info.mro:
        judge.looked_through(base)
        if "__hash__" in base.names:
            if base.fullname == "builtins.object":
                return identity_hash_problem(info, judge)
            if declares_no_hash(base):
                return phrases.unhashable(subject)
            if compares_by_identity(info, base, judge):
                return None if judge.trusts(info) else phrases.hash_without_eq(subject, of=info.fullname)
            return None
        if "__eq__" in base.names and base.fullname != "builtins.object":
            return phrases.eq_without_hash(subject)
    return None


def compares_by_identity(info: TypeInfo, hashed_by: TypeInfo, judge: Judge) -> bool:
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
    return "__eq__" in info.names or (dataclass and not declared_eq_false(info))


BUILTIN_TYPE_MODULES = frozenset({"builtins", "types"})
"""Where typeshed declares the interpreter's own classes (``types.FunctionType`` is a builtin,
``FunctionType.__module__ == "builtins"`` at run time). Their identity hash is no verdict on a
value: a module-level function is one object, its identity its value, while a lambda or a
closure is made afresh, which the value check reports where it is made (``static_values``),
as the runtime's value check does at construction."""


def identity_hash_problem(info: TypeInfo, judge: Judge) -> Problem | None:
    """``static-identity-hash``, unless the class's identity is its value (trusted, or one of
    the interpreter's own classes)."""
    if judge.trusts(info) or info.module_name in BUILTIN_TYPE_MODULES:
        return None
    return phrases.identity_hash(phrases.typed(class_name(info)), of=info.fullname)
