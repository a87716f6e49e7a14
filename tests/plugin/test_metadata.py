"""The records the plugin keeps in ``TypeInfo.metadata``: each survives its JSON round trip
(as mypy's cache stores it), and data in another shape reads as absent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mypy.nodes import Block, ClassDef, SymbolTable, TypeInfo

from jaxtypes._vocabulary import phrases
from mypy_plugin.metadata import (
    ChangeEvidence,
    ClassFacts,
    DataclassOptions,
    JittedMethods,
    LibraryFields,
    Record,
    RegisteredPytree,
    TrustedStatic,
    ProblemRecord,
)


def class_info(name: str = "C") -> TypeInfo:
    info = TypeInfo(SymbolTable(), ClassDef(name, Block([])), "module")
    info.mro = [info]
    return info


PROBLEM = ProblemRecord.of("Inner.f", phrases.unhashable(phrases.typed("list[int]"), "list"))

RECORDS: list[Record] = [
    ClassFacts("static", ("a", "b"), PROBLEM),
    ClassFacts("pytree", ("meta",)),
    LibraryFields("eqx.field(static=True)", ("b",)),
    DataclassOptions(eq=False, frozen=True, unsafe_hash=False),
    ChangeEvidence({"n": "Counter.step assigns self.n"}, {"append": ("_keys", "_values")}, {"step": ("n",)}),
    ChangeEvidence({}, {}),
    JittedMethods(("render", "step")),
    RegisteredPytree(),
    TrustedStatic(),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda record: type(record).__name__)
def test_a_record_survives_the_cache(record: Record) -> None:
    info = class_info()
    record.write(info)
    info.metadata = json.loads(json.dumps(info.metadata))  # as mypy's JSON cache gives it back
    assert type(record).read(info) == record
    type(record).erase(info)
    assert type(record).read(info) is None


def test_a_problem_record_keeps_its_rule_sentence_and_fix() -> None:
    problem = PROBLEM.problem()
    assert problem.rule.code == "static-unhashable"
    assert problem.what == "Inner.f is typed list[int], which is unhashable"
    assert problem.fix is not None and "tuple" in problem.fix


OTHER_SHAPES: list[tuple[type[Record], Any]] = [
    (ClassFacts, {"role": "static"}),
    (ClassFacts, {"role": "pytree", "meta_fields": "all", "problem": None}),
    (ClassFacts, {"role": "unknown", "meta_fields": [], "problem": None}),
    (ClassFacts, {"role": "static", "meta_fields": [], "problem": ["static-unhashable", "x", None]}),
    (
        ClassFacts,
        {"role": "static", "meta_fields": [], "problem": {"code": "no-such-code", "sentence": "x", "fix": None}},
    ),
    (ClassFacts, ["static"]),
    (LibraryFields, {"marker": "m", "fields": [1]}),
    (DataclassOptions, {"eq": "yes", "frozen": False, "unsafe_hash": False}),
    (ChangeEvidence, {}),
    (ChangeEvidence, {"assigned": "Counter.step assigns self.n", "in_place": {}}),  # an older version's
    (ChangeEvidence, {"assigned": {}, "in_place": {}}),  # one without writers
    (ChangeEvidence, {"assigned": {}, "in_place": {}, "writers": {"step": "n"}}),
    (JittedMethods, {"names": "render"}),
]


@pytest.mark.parametrize("record, data", OTHER_SHAPES)
def test_data_in_another_shape_reads_as_absent(record: type[Record], data: Any) -> None:
    info = class_info()
    info.metadata[record.KEY] = data
    assert record.read(info) is None


def test_a_record_is_inherited_from_the_first_base_that_has_one() -> None:
    base, middle, child = class_info("Base"), class_info("Middle"), class_info("Child")
    child.mro = [child, middle, base]
    ChangeEvidence({"n": "Base.step assigns self.n"}, {}).write(base)
    assert ChangeEvidence.inherited(child) == ChangeEvidence({"n": "Base.step assigns self.n"}, {})
    assert ChangeEvidence.read(child) is None
