"""A call, in another module, of a method that changes an object whose class jits its methods
with a static ``self``: where the evidence of stale code lies when the class only offers the
change (``jit_evidence.class_mutation``), a public setter, and callers decide when it runs.

``loader.load(path)`` after a jitted method of ``loader`` ran keeps that method's code, traced
with the old attribute, keyed on ``loader``'s identity; the same call as a step of ``loader``'s
construction (``loader = Loader(); loader.load(path)``) changes nothing jit has seen. What the
method changes and what the jitted methods read come from the class's records
(``ChangeEvidence.writers``, ``MethodReads``) and which methods are jitted from their types
(``Statics``), so a class from the cache is judged as one analysed now.
"""

from __future__ import annotations


from mypy.nodes import CallExpr, Decorator, FuncBase, MemberExpr, SymbolTableNode, TypeInfo
from mypy.plugin import CheckerPluginInterface, MethodContext
from mypy.types import Instance, Type, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from mypy_plugin.jit_evidence import changes, counted, dependent_judge, static_self_methods, writers_of
from mypy_plugin.markers import class_name, written
from mypy_plugin.metadata import ChangeEvidence, JittedMethods
from mypy_plugin.mypy_internals import checked_module
from mypy_plugin.reporting import report


def may_change_instances(symbol: SymbolTableNode | None) -> bool:
    """``symbol`` is a method of a class that records changes to its instances or methods it jits
    (``ChangeEvidence``, ``JittedMethods``): a call of it is looked at (``changing_call``), and
    depends on the class, whose edits may make it a change."""
    node = symbol.node if symbol is not None else None
    info = node.info if isinstance(node, (FuncBase, Decorator)) else None
    return info is not None and (ChangeEvidence.KEY in info.metadata or JittedMethods.KEY in info.metadata)


def changing_call_hook(ctx: MethodContext) -> Type:
    """A call of a method of a class that may change its instances (``may_change_instances``):
    ``changing_call``."""
    call, receiver = ctx.context, get_proper_type(ctx.type)
    if isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr) and isinstance(receiver, Instance):
        problem = changing_call(ctx.api, call, receiver.type, call.callee.name)
        if problem is not None:
            report(ctx.api, problem, phrases.changing_call(written(call.callee.expr), call.callee.name), call)
    return ctx.default_return_type


def changing_call(api: CheckerPluginInterface, call: CallExpr, info: TypeInfo, method: str) -> Problem | None:
    """``x.method(...)``, in a module other than the one of ``info`` (the class of ``x``), where
    the method changes attributes that a method of ``info`` jitted with a static ``self`` reads,
    and the call is no step of ``x``'s construction: jit keeps running the code it traced with
    the old values (in the class's own module the jitted method's declaration says so)."""
    tree = checked_module(api)
    callee = call.callee
    if tree is None or info.module_name == tree.fullname or not isinstance(callee, MemberExpr):
        return None
    judge = dependent_judge(api, info)  # before any verdict: an edit of the class may change it
    if any(judge.trusts(base) or judge.hashes_fields(base) for base in info.mro):
        return None
    changed = writers_of(info).get(method, ())
    jitted = next(
        (
            (name, min(read))
            for name, reads in static_self_methods(api, info)
            for read in [counted(info, changed, reads)]
            if read
        ),
        None,
    )
    only_this = {method: tuple(changed)}
    if jitted is None or next(changes(api, tree.defs, lambda expr: expr is callee.expr, only_this, info), None) is None:
        return None
    name, attribute = jitted
    return phrases.changes_static_self(class_name(info), attribute, name)
