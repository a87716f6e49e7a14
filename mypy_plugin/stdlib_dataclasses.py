"""What mypy's dataclass metadata leaves out: whether a stdlib dataclass compares by value.

``@dataclass(frozen=True, eq=False)`` keeps ``object.__eq__``/``__hash__``, so it hashes by
identity like a plain class, but mypy records only ``frozen`` in ``info.metadata["dataclass"]``.
The tagging hook of the first semantic pass reads the decorator's literal ``eq`` and stores it
as JSON next to mypy's own facts (kept by the cache, workers and the daemon). It runs mypy's
own tagging first, so the dataclass transform happens whatever happens here.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, NameExpr, TypeInfo
from mypy.plugin import ClassDefContext
from mypy.plugins.dataclasses import dataclass_makers, dataclass_tag_callback

DATACLASS_MAKERS = frozenset(dataclass_makers)

EQUALITY_KEY = "jaxtypes_dataclass_eq"
"""``info.metadata`` key: ``{"eq": bool}`` of a stdlib dataclass."""


def tag_hook(ctx: ClassDefContext) -> None:
    """Tag the class as mypy does, then record the decorator's equality options."""
    dataclass_tag_callback(ctx)
    eq = True
    if isinstance(ctx.reason, CallExpr):
        for name, value in zip(ctx.reason.arg_names, ctx.reason.args):
            if name == "eq" and isinstance(value, NameExpr) and value.fullname == "builtins.False":
                eq = False
    ctx.cls.info.metadata[EQUALITY_KEY] = {"eq": eq}


def compares_by_identity(info: TypeInfo) -> bool:
    """A dataclass declared ``eq=False``: unless a class in its MRO defines ``__eq__``, equal
    copies are unequal to jit's cache, whatever ``unsafe_hash`` says."""
    options = info.metadata.get(EQUALITY_KEY)
    return options is not None and not options["eq"]
