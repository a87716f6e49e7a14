"""What mypy's dataclass metadata leaves out, or records late: a stdlib dataclass's ``eq``,
``frozen`` and ``unsafe_hash``.

``@dataclass(frozen=True, eq=False)`` keeps ``object.__eq__``/``__hash__``, so it hashes by
identity like a plain class, but mypy records only ``frozen`` (``mypy_internals.MypyDataclass``),
and only once the dataclass transform has run, after the module's first semantic pass (a class
judged during that pass, an equinox module's static field say, sees a dataclass that is not
transformed yet). The tagging hook of the first pass reads the decorator's literal ``eq``,
``frozen`` and ``unsafe_hash`` and records them next to mypy's own facts
(``metadata.DataclassOptions``, kept by the cache, workers and the daemon). It runs mypy's own tagging first, so the dataclass transform happens whatever happens
here.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Expression, MemberExpr, MypyFile, NameExpr, RefExpr, TypeInfo
from mypy.plugin import ClassDefContext

from jaxtypes._vocabulary.libraries import PYTREE_DATACLASS_ALIASES
from mypy_plugin.metadata import DataclassOptions
from mypy_plugin.mypy_internals import MypyDataclass, dataclass_tag_callback


def tag_hook(ctx: ClassDefContext) -> None:
    """Tag the class as mypy does, then record the decorator's literal ``eq`` and ``frozen``, or
    that it is another library's frozen pytree dataclass (``libraries.PYTREE_DATACLASS_ALIASES``)."""
    dataclass_tag_callback(ctx)
    options = {"eq": True, "frozen": False, "unsafe_hash": False, "pytree": False}
    if _written_as(ctx.reason) in PYTREE_DATACLASS_ALIASES:
        options.update(frozen=True, pytree=True)
    elif isinstance(ctx.reason, CallExpr):
        for name, value in zip(ctx.reason.arg_names, ctx.reason.args):
            written = written_bool(value)
            if name in options and written is not None:
                options[name] = written
    DataclassOptions(**options).write(ctx.cls.info)


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
