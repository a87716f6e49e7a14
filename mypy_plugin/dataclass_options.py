"""What mypy's dataclass and attrs metadata leave out, or record late: the ``eq``, ``frozen``
and ``unsafe_hash`` of a stdlib dataclass or an attrs class.

``@dataclass(frozen=True, eq=False)`` keeps ``object.__eq__``/``__hash__``, so it hashes by
identity like a plain class, but mypy records only ``frozen`` (``mypy_internals.MypyDataclass``),
and only once the dataclass transform has run, after the module's first semantic pass (a class
judged during that pass, an equinox module's static field say, sees a dataclass that is not
transformed yet). The tagging hook of the first pass reads the decorator's literal ``eq``,
``frozen`` and ``unsafe_hash`` and records them next to mypy's own facts
(``metadata.DataclassOptions``, kept by the cache, workers and the daemon). attrs classes are
the same kind of value (``attrs.frozen`` hashes and compares its fields; ``eq=False`` keeps
identity; ``hash=True`` hashes fields that can change), read from attrs' own words (``cmp``,
``hash``). Each hook runs mypy's own tagging first, so mypy's transform happens whatever
happens here.
"""

from __future__ import annotations

from mypy.nodes import AssignmentStmt, CallExpr, ClassDef, Expression, MemberExpr, MypyFile, NameExpr, RefExpr, TypeInfo
from mypy.plugin import ClassDefContext

from jaxtypes._vocabulary.libraries import PYTREE_DATACLASS_ALIASES
from mypy_plugin.dependencies import expose_recorded_facts
from mypy_plugin.metadata import DataclassOptions
from mypy_plugin.mypy_internals import ATTRS_FROZEN_MAKERS, MypyDataclass, attr_tag_callback, dataclass_tag_callback


def tag_hook(ctx: ClassDefContext) -> None:
    """Tag the class as mypy does, then record the decorator's literal ``eq`` and ``frozen``, or
    that it is another library's frozen pytree dataclass (``libraries.PYTREE_DATACLASS_ALIASES``)."""
    dataclass_tag_callback(ctx)
    if _written_as(ctx.reason) in PYTREE_DATACLASS_ALIASES:
        DataclassOptions(frozen=True, pytree=True).write(ctx.cls.info)
        return
    written = _written_flags(ctx.reason, eq=True, frozen=False, unsafe_hash=False)
    DataclassOptions(
        eq=bool(written["eq"]),
        frozen=bool(written["frozen"]),
        unsafe_hash=bool(written["unsafe_hash"]),
        uncompared=_uncompared_fields(ctx.cls, "compare"),
    ).write(ctx.cls.info)
    expose_recorded_facts(ctx.cls)


def attrs_tag_hook(ctx: ClassDefContext) -> None:
    """Tag an attrs class as mypy does, then record its decorator's literal ``eq`` (``cmp`` in
    attrs' older word), ``frozen`` (the default of ``attrs.frozen``) and ``hash``/``unsafe_hash``."""
    attr_tag_callback(ctx)
    callee = ctx.reason.callee if isinstance(ctx.reason, CallExpr) else ctx.reason
    frozen = isinstance(callee, RefExpr) and callee.fullname in ATTRS_FROZEN_MAKERS
    written = _written_flags(ctx.reason, eq=True, cmp=None, frozen=frozen, hash=None, unsafe_hash=None)
    DataclassOptions(
        eq=bool(written["eq"] if written["cmp"] is None else written["cmp"]),
        frozen=bool(written["frozen"]),
        unsafe_hash=bool(written["hash"] or written["unsafe_hash"]),
        uncompared=_uncompared_fields(ctx.cls, "eq", "cmp"),
    ).write(ctx.cls.info)
    expose_recorded_facts(ctx.cls)


def _uncompared_fields(defn: ClassDef, *keywords: str) -> tuple[str, ...]:
    """The fields the body of ``defn`` declares with one of ``keywords`` False
    (``x: Callable = field(compare=False)``, attrs' ``eq=False``): the generated ``__eq__`` and
    ``__hash__`` leave them out, so what they hold is no part of a static value's key."""
    found = []
    for stmt in defn.defs.body:
        value = stmt.rvalue if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 else None
        target = stmt.lvalues[0] if isinstance(stmt, AssignmentStmt) else None
        if isinstance(value, CallExpr) and isinstance(target, NameExpr):
            if False in _written_flags(value, **dict.fromkeys(keywords)).values():
                found.append(target.name)
    return tuple(found)


def uncompared(info: TypeInfo) -> frozenset[str]:
    """The fields that ``info`` and its bases leave out of ``__eq__`` and ``__hash__``."""
    return frozenset(name for base in info.mro for name in getattr(DataclassOptions.read(base), "uncompared", ()))


def _written_flags(reason: Expression, **defaults: bool | None) -> dict[str, bool | None]:
    """The decorator's literal booleans for the keywords ``defaults`` names, else the defaults."""
    flags = dict(defaults)
    if isinstance(reason, CallExpr):
        for name, value in zip(reason.arg_names, reason.args):
            written = written_bool(value)
            if name in flags and written is not None:
                flags[name] = written
    return flags


def _written_as(reason: Expression) -> tuple[str, str] | None:
    """The decorator as written: (module, name) for ``module.name``, ("", name) for a bare name."""
    expr = reason.callee if isinstance(reason, CallExpr) else reason
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, RefExpr) and isinstance(expr.expr.node, MypyFile):
        return expr.expr.node.fullname, expr.name
    if isinstance(expr, NameExpr):
        return next(((module, name) for module, name in PYTREE_DATACLASS_ALIASES if name == expr.name), None)
    return None


def written_bool(expr: Expression | None) -> bool | None:
    """``True`` or ``False`` as written, else None."""
    return {"builtins.True": True, "builtins.False": False}.get(expr.fullname) if isinstance(expr, NameExpr) else None


def is_pytree_dataclass(info: TypeInfo) -> bool:
    """Another library's dataclass that makes a pytree class (``jax_dataclasses``, flax's
    structs), frozen as that library makes it, whatever mypy saw."""
    options = DataclassOptions.read(info)
    return options is not None and options.pytree


def declared_eq_false(info: TypeInfo) -> bool:
    """A dataclass declared ``eq=False``: unless a class in its MRO defines ``__eq__``, equal
    copies are unequal to jit's cache, whatever ``unsafe_hash`` says."""
    options = DataclassOptions.read(info)
    return options is not None and not options.eq


def deciding_dataclass(info: TypeInfo) -> TypeInfo | None:
    """The dataclass whose generated ``__eq__``/``__hash__`` instances of ``info`` use: ``info``
    or the first base that is a dataclass (an undecorated subclass inherits them), unless a
    class before it in the MRO writes its own ``__eq__`` or ``__hash__``; None for others."""
    for base in info.mro[:-1]:
        if (
            MypyDataclass.read(base) is not None
            or MypyDataclass.tagged(base)
            or DataclassOptions.read(base) is not None
        ):
            return base
        if "__eq__" in base.names or "__hash__" in base.names:
            return None
    return None


def dataclass_frozen(info: TypeInfo) -> bool | None:
    """Whether a dataclass is frozen, from mypy's facts once its transform ran, or from the
    decorator before (classes judged while the module is still analysed); None for a class
    that is not a dataclass, or whose dataclass transform (another library's) has not run yet."""
    options = DataclassOptions.read(info)
    if options is not None and options.pytree:  # another library's: what it makes, whatever mypy saw
        return options.frozen
    dataclass = MypyDataclass.read(info)
    if dataclass is not None:
        return dataclass.frozen
    return None if options is None else options.frozen


def hashes_its_fields(info: TypeInfo) -> bool:
    """A dataclass declared ``unsafe_hash=True``: it hashes its fields, even when they can change."""
    options = DataclassOptions.read(info)
    return options is not None and options.unsafe_hash
