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
    may well be that one: other libraries' fields, plain ``jax.jit`` arguments. jaxtypes' own
    classes judge every member, as the runtime does."""

    def trusts(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a trusted static type (``trusted_types``)."""
        return is_trusted(info, self.api)

    def hashes_fields(self, info: TypeInfo) -> bool:
        """Whether ``info`` is a library's value class, hashed over its fields (``trusted_types``)."""
        return hashes_its_fields(info, self.api)
