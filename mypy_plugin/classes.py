"""Class hooks: the static-class rules of ``@static_dataclass`` and ``@pytree_dataclass``.

Each decorated class goes through collect → validate → record: mypy's dataclass transform
runs first (it owns ``__init__``, frozenness and the field list), then every field declared in
the class body is checked with ``declared_types``, and the facts other modules need (role, static
fields, the class's own problem) are recorded for the class (``metadata.ClassFacts``).
"""

from __future__ import annotations

from typing import NamedTuple

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    Context,
    Expression,
    NameExpr,
    RefExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface
from mypy.types import AnyType, Instance, Type, TypeOfAny, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import FIELD, STATIC_DECORATOR
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.positions import is_static
from mypy_plugin.declared_types import decorated_role, decorator_fullname, static_problem
from mypy_plugin.judge import Judge, NotReady
from mypy_plugin.markers import class_name, read_marker
from mypy_plugin.metadata import ClassFacts, ProblemRecord, Role
from mypy_plugin.mypy_internals import MypyDataclass, class_trigger, dataclass_class_maker_callback
from mypy_plugin.reporting import report
from mypy_plugin.static_values import default_problem

FIELD_SPECIFIERS = frozenset({FIELD, "dataclasses.field"})


class Field(NamedTuple):
    """One field declared in the class body: its statement, declared type and options."""

    name: str
    context: Context
    type: Type
    hash_by_id: bool
    default: Expression | None


def is_static_class(info: TypeInfo) -> bool:
    """Whether ``info`` is decorated with ``static_dataclass`` (recorded, or seen in this module)."""
    return decorated_role(info) == "static"


def is_static_class_type(typ: Type) -> bool:
    """Whether ``typ`` is an instance of a class decorated with ``static_dataclass``."""
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and is_static_class(proper.type)


class ClassRules:
    """Checks one class decorated with ``static_dataclass`` or ``pytree_dataclass``."""

    def __init__(self, ctx: ClassDefContext, role: Role) -> None:
        self.ctx = ctx
        self.api: SemanticAnalyzerPluginInterface = ctx.api
        self.info = ctx.cls.info
        self.role = role
        self.problems: list[tuple[Context, str, Problem]] = []

    def apply(self) -> bool:
        """Run the rules once the dataclass transform is done; False asks mypy to call again."""
        if not dataclass_class_maker_callback(self.ctx):
            return False
        # Provisional facts while the fields are checked: a field naming the class itself (a
        # tree of configs, a pytree holding itself) sees its role, as at run time.
        ClassFacts(self.role).write(self.info)
        try:
            meta_fields = self.check_fields()
            inherited = self.check_class() if self.role == "static" else None
        except NotReady:
            ClassFacts.erase(self.info)
            return False
        ClassFacts(self.role, tuple(meta_fields), self.own_problem() or inherited).write(self.info)
        for context, where, problem in self.problems:
            report(self.api, problem, where, context)
        return True

    def looked_through(self, info: TypeInfo) -> None:
        """Depend on ``info`` (for the daemon) and wait for its class hook if it has not run."""
        if info.fullname != self.info.fullname:
            self.api.add_plugin_dependency(class_trigger(info))
        if MypyDataclass.pending(info) and not self.api.final_iteration:
            raise NotReady(info.fullname)

    def own_problem(self) -> ProblemRecord | None:
        """The first problem of a static class, worded for the classes that nest it."""
        if self.role != "static" or not self.problems:
            return None
        _, where, problem = self.problems[0]
        return ProblemRecord.of(where, problem)

    def check_class(self) -> ProblemRecord | None:
        """Class-level rules of a static class; returns the problem it inherits, if any."""
        name = class_name(self.info)
        own = MypyDataclass.read(self.info)
        if own is not None and not own.frozen:
            self.problems.insert(0, (self.ctx.reason, name, phrases.DECLARED_NOT_FROZEN))
        for base in self.info.mro[1:-1]:
            self.looked_through(base)
            dataclass = MypyDataclass.read(base)
            if dataclass is not None and not dataclass.frozen:
                self.problems.insert(0, (self.ctx.cls, name, phrases.inherits_not_frozen(class_name(base))))
            facts = ClassFacts.read(base)
            if facts is not None and facts.problem is not None:
                return facts.problem
        return None

    def check_fields(self) -> list[str]:
        """Check each field (inherited from stdlib dataclasses, then declared in the body);
        returns the names of the static (meta) fields."""
        meta: list[str] = []
        for field in [*self.inherited_fields(), *self.own_fields()]:
            where = f"{class_name(self.info)}.{field.name}"
            kind, inner, marker_problem = read_marker(field.type)
            if marker_problem is not None:
                self.problems.append((field.context, where, marker_problem))
                continue
            if self.role == "static" and kind == "dynamic":
                self.problems.append((field.context, where, phrases.DYNAMIC_IN_STATIC))
                continue
            in_static_class = self.role == "static"
            static_class_type = is_static_class_type(inner)
            if not is_static(
                kind, static_class_type=static_class_type, hash_by_id=field.hash_by_id, in_static_class=in_static_class
            ):
                continue  # a pytree's data field
            meta.append(field.name)
            if not field.hash_by_id:
                problem = static_problem(inner, Judge(self.api, self.looked_through))
                if problem is None and field.default is not None:
                    problem = default_problem(field.default, self.api, Judge(self.api, self.looked_through))
                if problem is not None:
                    self.problems.append((field.context, where, problem))
        return meta

    def own_fields(self) -> list[Field]:
        """The dataclass fields declared in this class's body, in order."""
        own = MypyDataclass.read(self.info)
        names = set(own.fields if own is not None else ())
        fields = []
        for stmt in self.ctx.cls.defs.body:
            if not (isinstance(stmt, AssignmentStmt) and isinstance(stmt.lvalues[0], NameExpr)):
                continue
            lvalue = stmt.lvalues[0]
            symbol = self.info.names.get(lvalue.name)
            if lvalue.name not in names or symbol is None or not isinstance(symbol.node, Var):
                continue
            typ = symbol.node.type or AnyType(TypeOfAny.unannotated)
            hash_by_id, default = self.field_options(stmt)
            fields.append(Field(lvalue.name, lvalue, typ, hash_by_id, default))
        return fields

    def inherited_fields(self) -> list[Field]:
        """Fields inherited from stdlib dataclass bases, reported at the class: the runtime
        checks every dataclass field, and a jaxtypes base has checked its own already."""
        own = {
            stmt.lvalues[0].name
            for stmt in self.ctx.cls.defs.body
            if isinstance(stmt, AssignmentStmt) and isinstance(stmt.lvalues[0], NameExpr)
        }
        fields: dict[str, Field] = {}
        for base in reversed(self.info.mro[1:-1]):
            dataclass = MypyDataclass.read(base)
            if dataclass is None:
                continue
            self.looked_through(base)
            for name in dataclass.fields:
                symbol = base.names.get(name)
                if name in own or symbol is None or not isinstance(symbol.node, Var):
                    continue
                if ClassFacts.read(base) is not None:
                    fields.pop(name, None)
                    continue
                typ = symbol.node.type or AnyType(TypeOfAny.unannotated)
                fields[name] = Field(name, self.ctx.cls, typ, False, None)
        return list(fields.values())

    def field_options(self, stmt: AssignmentStmt) -> tuple[bool, Expression | None]:
        """``hash_by_id`` and the default value of a field's assignment, if it has them."""
        rvalue = stmt.rvalue
        if stmt.is_final_def or (isinstance(rvalue, NameExpr) and rvalue.name == "..."):
            return False, None
        if isinstance(rvalue, CallExpr) and decorator_fullname(rvalue) in FIELD_SPECIFIERS:
            options = dict(zip(rvalue.arg_names, rvalue.args))
            by_id = options.get("hash_by_id")
            return (by_id is not None and self.api.parse_bool(by_id) is True), options.get("default")
        if isinstance(rvalue, NameExpr) and rvalue.fullname == "builtins.None":
            return False, None
        return False, rvalue if stmt.type is not None else None


def static_class_hook(ctx: ClassDefContext) -> bool:
    """``@static_dataclass``: every field must be static-safe and the class frozen."""
    return ClassRules(ctx, "static").apply()


def pytree_class_hook(ctx: ClassDefContext) -> bool:
    """``@pytree_dataclass``: its static (meta) fields must be static-safe."""
    return ClassRules(ctx, "pytree").apply()


def subclass_hook(ctx: ClassDefContext) -> None:
    """An undecorated subclass of a static dataclass (``static-subclass``)."""
    if any(decorator_fullname(d) == STATIC_DECORATOR for d in ctx.cls.decorators):
        return
    base = ctx.reason.node if isinstance(ctx.reason, RefExpr) else None
    problem = phrases.undecorated_subclass(class_name(base) if isinstance(base, TypeInfo) else "base")
    report(ctx.api, problem, class_name(ctx.cls.info), ctx.cls)
