"""Which functions of the module a jit (``names.JITS``: ``jax.jit``, ``jax.pmap``) compiles: a
decorator (on a method, a module-level or a local ``def``), or a call ``jax.jit(f)`` naming the
function; which jax.lax's control flow traces (``jax.lax.fori_loop(0, n, body, x)``); and which
methods a class jits itself, recorded for readers in other modules (``record_jitted_methods``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from mypy.nodes import (
    ARG_POS,
    ARG_NAMED,
    ArgKind,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    ReturnStmt,
    StarExpr,
    SymbolNode,
    TupleExpr,
)
from mypy.plugin import ClassDefContext

from jaxtypes._vocabulary.names import (
    DIFFERENTIATING_TRANSFORMS,
    EQX_FILTER_JIT,
    JAXTYPES_JIT,
    JITS,
    LAX_TRACED_FUNCTIONS,
    PARTIAL,
    TRACING_TRANSFORMS,
    LaxControlFlow,
)
from mypy_plugin.metadata import JittedMethods
from mypy_plugin.method_bodies import definition, instance_methods
from mypy_plugin.mypy_internals import checked_module
from mypy_plugin.static_values import makes_function
from mypy_plugin.statements import calls, is_name, parameter_at, placed, walk


COMPILING_JITS = frozenset(JITS) | {EQX_FILTER_JIT, JAXTYPES_JIT}
"""What compiles a function it is given, tracing its body once per cache key and flattening its
arguments to find the compiled code: ``names.JITS``, ``eqx.filter_jit``, ``jaxtypes.jit``."""


def jitting(tree: MypyFile, function: FuncDef, jits: Collection[str] = JITS.keys()) -> list[CallExpr | RefExpr]:
    """What jits ``function`` (one of ``jits``): its decorators that do (``@jax.jit``,
    ``@jax.jit(static_argnums=...)``, ``@partial(jax.pmap, ...)``), then the module's calls
    ``jax.jit(function, ...)``."""
    decorated = decorated_definition(tree, function)
    decorators = decorated.original_decorators if decorated is not None else []
    found = [d for d in decorators if isinstance(d, (CallExpr, RefExpr)) and is_jit(tree, d, jits)]
    return [*found, *_jit_calls(tree, function, jits)]


def compiled(tree: MypyFile, function: FuncDef) -> bool:
    """A jit of the module (``COMPILING_JITS``) compiles ``function``: its body runs only while
    that jit traces it, once per cache key."""
    return bool(jitting(tree, function, COMPILING_JITS))


def may_compile(tree: MypyFile, function: FuncDef) -> bool:
    """A decorator of ``function`` may jit it where the plugin cannot tell whether it does: a
    project's own decorator (``@jit_with_docstring(static_argnames=[...])``, or what calling it
    makes) from another of its modules, whose body the plugin reads only where mypy analyses that
    module from source, not from its cache; or one of the module whose body, nested functions
    included, calls a jit (a decorator that caches a jit per set of static names). The body of
    ``function`` may then run only while a jit traces it."""
    decorated = decorated_definition(tree, function)
    project = tree.fullname.partition(".")[0]
    for decorator in decorated.original_decorators if decorated is not None else []:
        node = resolved(tree, decorator.callee if isinstance(decorator, CallExpr) else decorator)
        node = node.func if isinstance(node, Decorator) else node
        if not isinstance(node, FuncDef) or node.fullname.partition(".")[0] != project:
            continue
        if node.fullname.rpartition(".")[0] != tree.fullname:
            return True
        if any(is_jit(tree, call) for call in calls([node.body])):
            return True
    return False


def is_jit(tree: MypyFile, expr: Expression, jits: Collection[str] = JITS.keys()) -> bool:
    """``expr`` is a jit (``jits``: ``jax.jit``, ``jax.pmap``, or a function of the module that
    forwards to one: ``forwarded_jit``), a call of one, or ``partial(jax.jit, ...)``; a name the
    analyser has not bound yet is resolved through the module's symbol table."""
    if not isinstance(expr, CallExpr):
        return _jits(tree, expr, jits)
    if resolved_fullname(tree, expr.callee) == PARTIAL:
        return bool(expr.args) and _jits(tree, expr.args[0], jits)
    return _jits(tree, expr.callee, jits)


def _jits(tree: MypyFile, expr: Expression, jits: Collection[str]) -> bool:
    if resolved_fullname(tree, expr) in jits:
        return True
    forwarder = forwarded_jit(tree, expr)
    return forwarder is not None and forwarder.jit in jits


class Forwarder(NamedTuple):
    """A function of the module that jits the function it is given first (``cond_jit(fn,
    static_argnums=None)``, returning ``jax.jit(fn, static_argnums=static_argnums)``, or ``fn``
    itself where jit is off): the jit (a key of ``names.JITS``), and each keyword it gives that
    jit with the parameter that gives its value (or the value itself, where it is fixed)."""

    function: FuncDef
    jit: str
    keywords: tuple[tuple[str, str | Expression], ...]

    def given(
        self, kinds: Sequence[ArgKind], names: Sequence[str | None], args: Sequence[Expression]
    ) -> list[tuple[str | None, Expression]]:
        """The keywords of the jit that a call of the function (its arguments ``args``, written
        with ``kinds`` and ``names``) gives it, with their values."""
        bound: dict[str, Expression] = {}
        for place, arg in placed(kinds, names, args):
            parameter = parameter_at(self.function, place)
            if parameter is not None:
                bound[parameter] = arg
        for argument in self.function.arguments:
            if argument.initializer is not None:
                bound.setdefault(argument.variable.name, argument.initializer)
        given = (
            (keyword, bound.get(source) if isinstance(source, str) else source) for keyword, source in self.keywords
        )
        return [(keyword, value) for keyword, value in given if value is not None and not is_name(value, "None")]


def forwarded_jit(tree: MypyFile, expr: Expression) -> Forwarder | None:
    """The ``Forwarder`` that ``expr`` names: a function of the module (its body is read, in every
    mode) whose every ``return`` gives its first parameter to a jit, keywords taken from its own
    parameters or fixed, or returns that parameter itself; None for anything else."""
    function = resolved(tree, expr)
    return forwarder_of(tree, function) if isinstance(function, FuncDef) else None


def forwarder_of(tree: MypyFile, function: FuncDef) -> Forwarder | None:
    """``forwarded_jit`` of the definition ``function``, a function the module ``tree`` defines at
    its top level (read from source: the cache keeps no bodies)."""
    if function not in tree.defs or not function.arguments:
        return None
    first = function.arguments[0].variable.name
    parameters = {argument.variable.name for argument in function.arguments}
    jit, keywords = None, {}
    for node, _, scope, _ in walk([function.body], scope=function):
        if scope is not function or not isinstance(node, ReturnStmt) or node.expr is None or is_name(node.expr, first):
            continue
        value = node.expr
        callee = resolved_fullname(tree, value.callee) if isinstance(value, CallExpr) else None
        if not isinstance(value, CallExpr) or callee not in JITS or not value.args or not is_name(value.args[0], first):
            return None
        if any(kind != ARG_NAMED for kind in value.arg_kinds[1:]) or jit not in (None, callee):
            return None
        jit = callee
        for name, arg in zip(value.arg_names[1:], value.args[1:]):
            source = arg.name if isinstance(arg, NameExpr) and arg.name in parameters else arg
            keywords[name] = source
    if jit is None:
        return None
    return Forwarder(function, jit, tuple((name, source) for name, source in keywords.items() if name is not None))


def resolved_fullname(tree: MypyFile, expr: Expression) -> str | None:
    """The full name of what ``expr`` refers to: its bound node's, else, where the analyser has not
    bound it yet (a base class's hook runs before later statements are), through the module's
    symbol table, where imports come first, and the modules it imports (``jax.jit``)."""
    node = resolved(tree, expr)
    return node.fullname if node is not None else None


def resolved(tree: MypyFile, expr: Expression) -> SymbolNode | None:
    """What ``expr`` refers to (``resolved_fullname``)."""
    if isinstance(expr, RefExpr) and expr.node is not None:
        return expr.node
    if isinstance(expr, NameExpr):
        symbol = tree.names.get(expr.name)
        return symbol.node if symbol is not None else None
    if isinstance(expr, MemberExpr):
        owner = resolved(tree, expr.expr)
        symbol = owner.names.get(expr.name) if isinstance(owner, MypyFile) else None
        return symbol.node if symbol is not None else None
    return None


def decorated_definition(tree: MypyFile, function: FuncDef) -> Decorator | None:
    """The decorated definition of ``function``: in its class's or the module's names, or among
    the statements of the function it is defined in."""
    if not function.is_decorated:
        return None
    symbol = (function.info.names if function.info else tree.names).get(function.name)
    if symbol is not None and isinstance(symbol.node, Decorator) and symbol.node.func.fullname == function.fullname:
        return symbol.node
    bodies = [node.body.body for node, *_ in walk(tree.defs, definitions=True) if isinstance(node, FuncDef)]
    return next((s for body in bodies for s in body if isinstance(s, Decorator) and s.func is function), None)


def jit_keywords(tree: MypyFile, jit: CallExpr) -> list[tuple[str | None, Expression]]:
    """The keyword arguments that ``jit``, a call that jits (``is_jit``: ``jax.jit(f, ...)``,
    ``partial(jax.jit, ...)``), gives the jit: its own, or, through a ``Forwarder``, those the
    forwarder passes on."""
    partial = resolved_fullname(tree, jit.callee) == PARTIAL
    kinds, names, args = (
        (jit.arg_kinds[1:], jit.arg_names[1:], jit.args[1:]) if partial else (jit.arg_kinds, jit.arg_names, jit.args)
    )
    forwarder = forwarded_jit(tree, jit.args[0] if partial and jit.args else jit.callee)
    return forwarder.given(kinds, names, args) if forwarder is not None else list(zip(names, args))


def _jit_calls(tree: MypyFile, function: FuncDef, jits: Collection[str] = JITS.keys()) -> list[CallExpr]:
    """The calls ``jax.jit(function, ...)`` (or of another jit) in the module, which jit it as its
    decorator would; also of what a jax transformation makes of it (``jax.jit(jax.grad(loss))``):
    those keep its positions, and jit traces each one not static."""
    return [
        call
        for call in calls(tree.defs)
        if isinstance(call.callee, RefExpr)
        and _jits(tree, call.callee, jits)
        and call.args
        and _names(call.args[0], function)
    ]


def _names(expr: Expression, function: FuncDef) -> bool:
    """``expr`` names ``function``, or is a jax transformation of what does (``jax.grad(f)``):
    by the definition it is bound to (local functions of one name in two functions are two), by
    its full name where the analyser has not bound it yet."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.args and makes_function(expr.callee):
        return _names(expr.args[0], function)
    if not isinstance(expr, RefExpr):
        return False
    return definition(expr.node) is function if expr.node is not None else expr.fullname == function.fullname


def traced_by_lax(tree: MypyFile, function: FuncDef) -> str | None:
    """The public name of the jax.lax control flow (``names.LAX_TRACED_FUNCTIONS``) that a call of
    the module gives ``function`` to trace, by its name; None where none does."""
    for call in calls(tree.defs):
        known = LAX_TRACED_FUNCTIONS.get(call.callee.fullname) if isinstance(call.callee, RefExpr) else None
        if known is None:
            continue
        if any(isinstance(arg, RefExpr) and arg.node is function for arg in traced_functions(call, known)):
            return known.public
    return None


def traced_functions(call: CallExpr, flow: LaxControlFlow) -> list[Expression]:
    """The functions ``call`` gives ``flow`` to trace, as it writes them: its arguments at the
    places ``flow`` traces (those of its old form where the call is written in it), or, where
    ``flow`` takes a sequence of functions there (``jax.lax.switch``'s branches), the items of a
    list or tuple display."""
    places: frozenset[int | str] = old_form_places(call, flow) or flow.places
    given = [arg for place, arg in placed(call.arg_kinds, call.arg_names, call.args) if place in places]
    if not flow.many:
        return given
    displays = [arg for arg in given if isinstance(arg, (ListExpr, TupleExpr))]
    return [item for display in displays for item in display.items if not isinstance(item, StarExpr)]


def old_form_places(call: CallExpr, flow: LaxControlFlow) -> frozenset[int] | None:
    """The places of the functions where ``call`` is written in the deprecated form of ``flow``
    jax still accepts (``old_form``); None where it is not."""
    if flow.old_form is None or call.arg_kinds != [ARG_POS] * flow.old_form[0]:
        return None
    return flow.old_form[1]


def record_jitted_methods(ctx: ClassDefContext) -> None:
    """Note in the class's metadata the methods it jits itself (``JittedMethods``): a call of one
    runs code compiled for what the instance held when jit traced it."""
    info, tree = ctx.cls.info, checked_module(ctx.api)
    JittedMethods.erase(info)
    if tree is None:
        return
    names = {
        stmt.func.name
        for stmt in ctx.cls.defs.body
        if isinstance(stmt, Decorator) and any(is_jit(tree, d) for d in stmt.original_decorators)
    }
    for method in instance_methods(ctx.cls):
        this = method.arguments[0].variable.name if method.arguments else None
        for call in calls([method.body]) if this is not None else []:
            given = call.args[0] if call.args else None
            if (is_jit(tree, call) or is_jit(tree, call.callee)) and isinstance(given, MemberExpr):
                if is_name(given.expr, this):
                    names.add(given.name)
    if names:
        JittedMethods(tuple(sorted(names))).write(info)


def transformed_function(expr: Expression) -> Expression:
    """The function a jax transformation wraps (``jax.vmap(env.reset)``, ``jax.grad(f)``, nested
    too), which runs with what it closes over, its bound ``self`` too, wherever the wrapper runs;
    ``expr`` itself where it is no such call."""
    while (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, RefExpr)
        and expr.callee.fullname in TRACING_TRANSFORMS.keys() | DIFFERENTIATING_TRANSFORMS.keys()
        and expr.args
    ):
        expr = expr.args[0]
    return expr


def called_function(call: CallExpr) -> Expression:
    """The function a call runs: its callee, or the function a jax transformation called at once
    wraps (``jax.vmap(f)(x)``), which calls it in turn."""
    return transformed_function(call.callee)
