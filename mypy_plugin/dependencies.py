"""Dependencies of checked code on the classes a check looked through, for the daemon.

mypy's checker API has no ``add_plugin_dependency``; semantic analysis records its plugin
dependencies in the module's ``plugin_deps``, which mypy reads when it computes the module's
fine-grained dependencies after checking it. Adding to the same table while checking makes
``dmypy`` recheck a jitted function or a call when a class it judged changes (a ``__hash__``
added or removed), as the class hooks do for fields.
"""

from __future__ import annotations

from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

from mypy_plugin.judge import Judge
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


def _ignore(info: TypeInfo) -> None:
    """Where the checker's internals are not as expected, record nothing."""
