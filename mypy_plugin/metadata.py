"""What the plugin records about classes in mypy's ``TypeInfo.metadata``, and that format's version.

mypy keeps ``info.metadata`` in its cache as JSON, so a fact recorded while one module is
analysed reaches other modules, later runs, parallel workers and the daemon. Each record below
owns its key and its JSON shape (``serialize``/``deserialize``, as mypy's ``DataclassAttribute``
does); the rest of the plugin reads and writes records, never raw dicts (mypy's own dataclass
facts are read through ``mypy_internals.MypyDataclass``). A record in another shape (an older
plugin's, or a damaged cache) reads as absent, so its facts are derived again.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Literal

from mypy.nodes import TypeInfo
from typing_extensions import Self

from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import RULES_BY_CODE

CACHE_FORMAT_VERSION = 24
"""The version of the records' shapes and meanings, and of the sentences they store (a class's
problem, in ``phrases``' words). The plugin reports it to mypy (``report_config_data``), which
discards a cache written under another one. Raise it whenever a record or a stored sentence
changes; it is not the package's version, which changes for other reasons."""

JsonDict = dict[str, Any]
Role = Literal["static", "pytree"]
"""What a jaxtypes decorator makes a class: a static class or a pytree class."""


class Record:
    """A fact stored under ``KEY`` in a class's metadata."""

    KEY: ClassVar[str]

    def serialize(self) -> JsonDict:
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        """The record ``serialize`` wrote; raises ``KeyError``, ``TypeError`` or ``ValueError``
        for data in another shape."""
        return cls(**data)

    @classmethod
    def read(cls, info: TypeInfo) -> Self | None:
        """The record stored for ``info`` (not its bases), or None if absent or in another shape."""
        data = info.metadata.get(cls.KEY)
        if not isinstance(data, dict):
            return None
        try:
            return cls.deserialize(data)
        except (KeyError, TypeError, ValueError):
            return None

    @classmethod
    def inherited(cls, info: TypeInfo) -> Self | None:
        """The record of ``info`` or of the first base in its MRO that has one."""
        return next((found for found in map(cls.read, info.mro) if found is not None), None)

    def write(self, info: TypeInfo) -> None:
        info.metadata[self.KEY] = self.serialize()

    @classmethod
    def erase(cls, info: TypeInfo) -> None:
        info.metadata.pop(cls.KEY, None)


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TypeError(f"expected a list of strings, got {value!r}")
    return tuple(value)


def _string_map(value: dict[object, object]) -> dict[str, str]:
    return {_string(key): _string(item) for key, item in value.items()}


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected a bool, got {value!r}")
    return value


@dataclasses.dataclass(frozen=True)
class ProblemRecord:
    """A static class's own or inherited problem: the rule's code, the sentence that says it of
    the class's field (``Inner.f is typed list[int], which is unhashable``) and the fix."""

    code: str
    sentence: str
    fix: str | None

    @classmethod
    def of(cls, where: str, problem: Problem) -> ProblemRecord:
        """``problem``, found at ``where`` (a field of the class or the class itself)."""
        return cls(problem.rule.code, f"{where} {problem.what}", problem.fix)

    def problem(self) -> Problem:
        return Problem(RULES_BY_CODE[self.code], self.sentence, self.fix)

    def serialize(self) -> JsonDict:
        return dataclasses.asdict(self)

    @classmethod
    def deserialize(cls, data: object) -> ProblemRecord:
        if not isinstance(data, dict):
            raise TypeError(f"expected a problem, got {data!r}")
        if data["code"] not in RULES_BY_CODE:
            raise ValueError(f"no rule has the code {data['code']!r}")
        fix = data["fix"]
        return cls(data["code"], _string(data["sentence"]), None if fix is None else _string(fix))


@dataclasses.dataclass(frozen=True)
class ClassFacts(Record):
    """A class decorated by jaxtypes: its role (static or pytree), its static (meta) fields, and
    for a static class the problem it has or inherits, which every field typed as it has too."""

    KEY: ClassVar[str] = "jaxtypes"

    role: Role
    meta_fields: tuple[str, ...] = ()
    problem: ProblemRecord | None = None

    def serialize(self) -> JsonDict:
        problem = None if self.problem is None else self.problem.serialize()
        return {"role": self.role, "meta_fields": list(self.meta_fields), "problem": problem}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        role = data["role"]
        if role not in ("static", "pytree"):
            raise ValueError(f"no class role {role!r}")
        problem = data["problem"]
        return cls(role, _strings(data["meta_fields"]), None if problem is None else ProblemRecord.deserialize(problem))


@dataclasses.dataclass(frozen=True)
class LibraryFields(Record):
    """The static fields a class declares in its own body with another library's marker (flax,
    equinox, ``register_dataclass``, jax_dataclasses), for the constructor check; absent where
    there are none. Those ``by_value`` were judged by what their default makes, not by their
    declared type: a construction is judged by the value it gives them. ``stored`` names, for
    each constructor parameter that ``__init__`` keeps as it is in a static field of another name
    (``self._config = config``), that field: what a construction gives the parameter, it holds.
    ``converted`` are the static fields construction always assigns a value made otherwise, and
    never a parameter as given (``self.breaks = tuple(breaks)``): what a construction gives, they
    do not hold."""

    KEY: ClassVar[str] = "jaxtypes_library_fields"

    marker: str
    fields: tuple[str, ...]
    by_value: tuple[str, ...] = ()
    stored: dict[str, str] = dataclasses.field(default_factory=dict)
    converted: tuple[str, ...] = ()

    def serialize(self) -> JsonDict:
        return {
            "marker": self.marker,
            "fields": list(self.fields),
            "by_value": list(self.by_value),
            "stored": self.stored,
            "converted": list(self.converted),
        }

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        stored = data["stored"]
        if not isinstance(stored, dict):
            raise TypeError(f"expected a mapping, got {stored!r}")
        fields = _strings(data["fields"])
        return cls(
            _string(data["marker"]),
            fields,
            _strings(data["by_value"]),
            _string_map(stored),
            _strings(data["converted"]),
        )


@dataclasses.dataclass(frozen=True)
class DataclassOptions(Record):
    """The literal ``eq``, ``frozen`` and ``unsafe_hash`` of a stdlib dataclass's or an attrs
    class's decorator, whether the decorator is another library's that makes a frozen pytree
    class, and the fields its body leaves out of ``__eq__`` and ``__hash__``
    (``field(compare=False)``: ``dataclass_options``)."""

    KEY: ClassVar[str] = "jaxtypes_dataclass_options"

    eq: bool = True
    frozen: bool = False
    unsafe_hash: bool = False
    pytree: bool = False
    uncompared: tuple[str, ...] = ()

    def serialize(self) -> JsonDict:
        return {**super().serialize(), "uncompared": list(self.uncompared)}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        flags = (_flag(data["eq"]), _flag(data["frozen"]), _flag(data["unsafe_hash"]), _flag(data["pytree"]))
        return cls(*flags, _strings(data["uncompared"]))


ANY_ATTRIBUTE = "<name>"
"""An attribute whose name the code does not show (``setattr(self, name, v)``, ``__setattr__``)."""


@dataclasses.dataclass(frozen=True)
class ChangeEvidence(Record):
    """How a class's own methods change its instances after they are made (``jit_evidence``):
    each attribute they assign, with the first words that say so (``Counter.step assigns
    self.n``; ``ANY_ATTRIBUTE`` where the name is not known); for each method the attributes
    whose contents it changes in place (``append``: ``self._keys``, ``self._values``); and for
    each method the attributes it assigns, itself or through the methods it calls (``writers``:
    a call of one is a change)."""

    KEY: ClassVar[str] = "jaxtypes_mutation"

    assigned: dict[str, str]
    in_place: dict[str, tuple[str, ...]]
    writers: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def serialize(self) -> JsonDict:
        return {
            "assigned": self.assigned,
            "in_place": {method: list(names) for method, names in self.in_place.items()},
            "writers": {method: list(names) for method, names in self.writers.items()},
        }

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        assigned, in_place, writers = data["assigned"], data["in_place"], data["writers"]
        if not all(isinstance(part, dict) for part in (assigned, in_place, writers)):
            raise TypeError(f"expected mappings, got {assigned!r}, {in_place!r} and {writers!r}")
        return cls(
            _string_map(assigned),
            {_string(method): _strings(names) for method, names in in_place.items()},
            {_string(method): _strings(names) for method, names in writers.items()},
        )


@dataclasses.dataclass(frozen=True)
class AttributeNames(Record):
    """A record that is a list of attribute names; each subclass says what they are."""

    names: tuple[str, ...]

    def serialize(self) -> JsonDict:
        return {"names": list(self.names)}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        return cls(_strings(data["names"]))


@dataclasses.dataclass(frozen=True)
class HashedAttributes(AttributeNames):
    """The attributes a class's own ``__hash__`` hashes as they are (``hashing``)."""

    KEY: ClassVar[str] = "jaxtypes_hashed_attributes"


@dataclasses.dataclass(frozen=True)
class MethodReads(Record):
    """What each of a class's own methods reads through ``self`` (``method_bodies.self_reads``);
    a method whose ``self`` escapes is absent."""

    KEY: ClassVar[str] = "jaxtypes_method_reads"

    methods: dict[str, tuple[str, ...]]

    def serialize(self) -> JsonDict:
        return {"methods": {name: list(read) for name, read in self.methods.items()}}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        methods = data["methods"]
        if not isinstance(methods, dict):
            raise TypeError(f"expected a mapping, got {methods!r}")
        return cls({_string(name): _strings(read) for name, read in methods.items()})


@dataclasses.dataclass(frozen=True)
class JittedMethods(AttributeNames):
    """The methods a class jits itself: decorated with a jit, or given to one through ``self``
    (``self.step = jax.jit(self.step)``) (``jitted_functions``)."""

    KEY: ClassVar[str] = "jaxtypes_jitted_methods"


@dataclasses.dataclass(frozen=True)
class HeldMethods(Record):
    """The attributes that the methods of a class, wherever they assign them, assign only what a
    call makes of its own bound method, with the methods (``self.step = jax.vmap(self._step)``,
    one per branch, ``method_bodies.held_methods``): calling one calls such a method with
    ``self`` bound."""

    KEY: ClassVar[str] = "jaxtypes_held_methods"

    attributes: dict[str, tuple[str, ...]]

    def serialize(self) -> JsonDict:
        return {"attributes": {name: list(methods) for name, methods in self.attributes.items()}}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        attributes = data["attributes"]
        if not isinstance(attributes, dict):
            raise TypeError(f"expected a mapping, got {attributes!r}")
        return cls({_string(name): _strings(methods) for name, methods in attributes.items()})


@dataclasses.dataclass(frozen=True)
class RebuiltAttributes(AttributeNames):
    """The attributes a class's construction makes anew from what it was given (``declared_types``)."""

    KEY: ClassVar[str] = "jaxtypes_rebuilt_attributes"


@dataclasses.dataclass(frozen=True)
class RegisteredPytree(Record):
    """A class decorated as a pytree by ``jax.tree_util`` (``jit_targets``)."""

    KEY: ClassVar[str] = "jaxtypes_registered_pytree"


@dataclasses.dataclass(frozen=True)
class FlattenedAux(Record):
    """The attributes a class's own flatten method (or the one its ``__init_subclass__``
    registers) returns as aux data, for the classes registered with it, its own or derived
    (``flatten_selection.flatten_aux``), and ``helpers``: the functions of its module that declare
    a dataclass field with literal metadata (``static_field()``), by full name, with that
    metadata, for the derived classes of other modules that declare fields with them."""

    KEY: ClassVar[str] = "jaxtypes_flattened_aux"

    names: tuple[str, ...]
    helpers: dict[str, dict[str, bool]] = dataclasses.field(default_factory=dict)

    def serialize(self) -> JsonDict:
        return {"names": list(self.names), "helpers": self.helpers}

    @classmethod
    def deserialize(cls, data: JsonDict) -> Self:
        helpers = data["helpers"]
        if not isinstance(helpers, dict) or not all(
            isinstance(keys, dict) and all(isinstance(value, bool) for value in keys.values())
            for keys in helpers.values()
        ):
            raise TypeError(f"expected helpers' metadata, got {helpers!r}")
        return cls(_strings(data["names"]), {_string(name): dict(keys) for name, keys in helpers.items()})


@dataclasses.dataclass(frozen=True)
class RegistersDerived(Record):
    """A class whose ``__init_subclass__`` or ``__new__`` registers each class derived from it
    as a pytree (``method_bodies.registers_derived``)."""

    KEY: ClassVar[str] = "jaxtypes_registers_derived"


@dataclasses.dataclass(frozen=True)
class UnseenDecorator(Record):
    """A class decorated by a function that may register it as a pytree where the plugin cannot
    see (``jit_targets.unseen_decorator_hook``)."""

    KEY: ClassVar[str] = "jaxtypes_unseen_decorator"


@dataclasses.dataclass(frozen=True)
class TrustedStatic(Record):
    """A class decorated ``@jaxtypes.trusted_static`` (``trusted_types``)."""

    KEY: ClassVar[str] = "jaxtypes_trusted_static"
