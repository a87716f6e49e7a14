"""What judging a declared type consults besides the type: mypy's interface, who to tell about the
classes looked through (the daemon's dependencies, readiness), and how strictly unions are read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

from mypy_plugin.trusted_types import hashes_its_fields, is_trusted


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
    may well be that one: other libraries' fields, plain ``jax.jit`` arguments; and judge a
    dataclass declared ``unsafe_hash=True`` by its fields, since there it is hashed afresh on
    every call (a changed instance hashes anew, so only evidence that one changes makes it a
    finding: ``static_positions``). jaxtypes' own classes judge every member, and refuse such a
    dataclass, as the runtime does: they cache the hash of what they hold."""

    strict_collections: bool = False
    """Judge a collection interface by the unhashable values it admits (``Sequence[int]``: a
    list), where no run-time check sees the value before jit hashes it: a plain jitted
    function's static parameter. Elsewhere the value check at construction or call sees it."""

    declaration: bool = False
    """Judge a plain jitted function's declaration of its static parameter, whose union lists
    what callers may pass: one member an unhashable builtin (``int | list[int]``) is reported
    with the others hashable. Not an argument's declared type, which may be wider than what the
    argument holds by the call (a list converted first)."""

    def trusts(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a trusted static type (``trusted_types``)."""
        return is_trusted(info, self.api)

    def hashes_fields(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a library's value class, hashed over its fields (``trusted_types``)."""
        return hashes_its_fields(info, self.api)
