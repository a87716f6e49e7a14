"""Dependencies of checked code on the classes a check looked through, for the daemon.

mypy's checker API has no ``add_plugin_dependency``; semantic analysis records its plugin
dependencies in the module's ``plugin_deps``, which mypy reads when it computes the module's
fine-grained dependencies after checking it. Adding to the same table while checking makes
``dmypy`` recheck a jitted function or a call when a class it judged changes (a ``__hash__``
added or removed), as the class hooks do for fields.
"""

from __future__ import annotations

import hashlib
import json

from mypy.nodes import MDEF, ClassDef, IndexExpr, MemberExpr, NameExpr, SymbolTableNode, TypeInfo, Var
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface
from mypy.types import AnyType, TypeOfAny

from mypy_plugin.judge import Judge
from mypy_plugin.metadata import (
    ChangeEvidence,
    DataclassOptions,
    FlattenedAux,
    HashedAttributes,
    HeldMethods,
    JittedMethods,
    MethodReads,
    RebuiltAttributes,
    RegistersDerived,
)
from mypy_plugin.mypy_internals import checked_module, class_trigger, scope_target


def recorder(api: CheckerPluginInterface) -> Judge:
    """A ``Judge`` whose ``looked_through`` makes the code being checked depend on each class it is given."""
    tree = checked_module(api)
    target = scope_target(api)
    if tree is None or target is None:
        return Judge(api, _ignore)

    def record(info: TypeInfo) -> None:
        if info.module_name != "builtins":
            tree.plugin_deps.setdefault(class_trigger(info), set()).add(target)

    return Judge(api, record)


def analyser_judge(api: SemanticAnalyzerPluginInterface) -> Judge:
    """A ``Judge`` for the semantic analyser, which records each class it is given as a plugin
    dependency of the class being analysed."""
    return Judge(api, lambda info: api.add_plugin_dependency(class_trigger(info)))


FACTS_PREFIX = "__jaxtypes_facts_"


CLASS_BODY_RECORDS = (
    ChangeEvidence.KEY,
    HashedAttributes.KEY,
    RebuiltAttributes.KEY,
    MethodReads.KEY,
    JittedMethods.KEY,
    DataclassOptions.KEY,
    FlattenedAux.KEY,
    RegistersDerived.KEY,
    HeldMethods.KEY,
)
"""The records read from a class's body (its methods, its dataclass fields' options) that its
declared symbols do not show."""


def expose_recorded_facts(defn: ClassDef) -> None:
    """Make what the class's body shows (``CLASS_BODY_RECORDS`` in its metadata: what its methods
    do, which fields a dataclass leaves out of its hash) part of the class as the daemon
    compares it: a class attribute named after a digest of them, written again by each hook that
    records one. The
    daemon rechecks a module when a class it looked through changes, and it compares classes by
    their symbols, not their metadata, so an edit inside a method body of another module (a new
    ``self.k += 1``) would otherwise leave its verdicts as they were, unlike every other mode. The
    attribute is typed ``Any``, so that no base's or override's check can object."""
    info = defn.info
    for name in [name for name in info.names if name.startswith(FACTS_PREFIX)]:
        del info.names[name]
    facts = {key: info.metadata[key] for key in CLASS_BODY_RECORDS if key in info.metadata}
    if not facts or _is_protocol(defn):  # a protocol's members decide which classes match it
        return
    digest = hashlib.sha1(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:16]
    var = Var(f"{FACTS_PREFIX}{digest}__", AnyType(TypeOfAny.special_form))
    var.info = info
    var.is_classvar = True
    var._fullname = f"{info.fullname}.{var.name}"
    info.names[var.name] = SymbolTableNode(MDEF, var, plugin_generated=True)


def _is_protocol(defn: ClassDef) -> bool:
    """A protocol class, also while its bases are configured, before mypy sets ``is_protocol``:
    ``Protocol`` or ``Protocol[T]`` is then among the bases it has taken out, by name."""
    named = [expr.base if isinstance(expr, IndexExpr) else expr for expr in defn.removed_base_type_exprs]
    return defn.info.is_protocol or any(
        isinstance(expr, (NameExpr, MemberExpr)) and expr.name == "Protocol" for expr in named
    )


def _ignore(info: TypeInfo) -> None:
    """Where the checker's internals are not as expected, record nothing."""
