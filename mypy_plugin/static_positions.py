"""Static positions of a jitted function, read from the jit call, and the check of calls that fill them.

The positions travel in the jitted function's type (``jitted_types.Statics``), so a call of a
function jitted in another module is checked the same from the cache, in parallel workers and in
the daemon.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ClassDef,
    ConditionalExpr,
    Context,
    Decorator,
    Expression,
    FuncDef,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    OpExpr,
    RefExpr,
    SuperExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import AnyType, Instance, TupleType, Type, TypeOfAny, TypeType, TypeVarType, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import (
    JAX_JITTED,
    JAX_MAKE_JAXPR,
    JAX_VMAP,
    JITS,
    JITTED_LIBRARY_FUNCTIONS,
    TRACING_TRANSFORMS,
)
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import (
    IDENTITY_HASH_FIX,
    STATIC_FRESH_CALLABLE,
    STATIC_FRESH_CALLABLE_STRICT,
    STATIC_IDENTITY_HASH,
    STATIC_IDENTITY_HASH_STRICT,
)
from mypy_plugin.captured_values import shaping_values
from mypy_plugin.constructors import is_static_field
from mypy_plugin.dataclass_options import hashes_its_fields
from mypy_plugin.declared_types import is_plain_class, static_problem
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_evidence import (
    Reads,
    changed_bound_method,
    changes_after_construction,
    copied,
    made_in,
    parameter_reads_of,
    repeated,
    while_tracing,
    with_evidence,
)
from mypy_plugin.jit_statics import decorated_statics, named_statics, read_statics, returned_statics
from mypy_plugin.jitted_types import JAX_JIT_NAME, Statics, private_name
from mypy_plugin.markers import class_name
from mypy_plugin.metadata import HeldMethods
from mypy_plugin.method_bodies import assigned_anywhere, assigned_values, takes_self
from mypy_plugin.mypy_internals import checked_module, innermost_function, lookup
from mypy_plugin.reporting import report
from mypy_plugin.traced_parameters import is_vmap, tracer_problem, unmapped
from mypy_plugin.statements import calls, is_name, placed
from mypy_plugin.stale_globals import jitted_function, stale_global_problem
from mypy_plugin.static_values import bound_method_problem
from mypy_plugin.traced_types import untraceable_problem
from mypy_plugin.value_origins import (
    LITERALS,
    MAX_STEPS,
    Fresh,
    Site,
    built_class,
    built_values,
    fresh_origin,
    made_classes,
    made_in_construction,
    origin_verdict,
    origins,
)


def call_hook(ctx: MethodContext) -> Type:
    """A call of a function jitted by ``jaxtypes.jit``: the values passed in its static positions."""
    return _check_call(ctx, needs_evidence=False)


def plain_call_hook(ctx: MethodContext) -> Type:
    """A call of a function jitted by ``jax.jit``: the same, but a bound method is reported only
    with evidence that its object changes (``jit_evidence``)."""
    return _check_call(ctx, needs_evidence=True)


def staged_call_hook(ctx: MethodContext) -> Type:
    """``jitted.lower(...)``, ``.trace(...)``, ``.eval_shape(...)`` of a function jitted by
    ``jax.jit`` (``names.JAX_JITTED_STAGES``): checked as the call ``jitted(...)`` they stand for."""
    return _check_call(ctx, needs_evidence=True, staged=True)


def jitted_factory_hook(ctx: FunctionContext) -> Type:
    """A call of a function of the module that returns a function it jits
    (``jit_statics.returned_statics``): what it returns carries that jit's static positions, so
    calls of it are checked as a jitted function's; typed as the factory declares it, or, where it
    declares nothing, as what ``jax.jit`` returns."""
    tree, call = checked_module(ctx.api), ctx.context
    function = call.callee.node if isinstance(call, CallExpr) and isinstance(call.callee, RefExpr) else None
    statics = returned_statics(tree, function) if tree is not None and isinstance(function, FuncDef) else None
    if statics is None:
        return ctx.default_return_type
    returned = ctx.default_return_type
    jitted = lookup(JAX_JITTED, ctx.api)
    if isinstance(get_proper_type(returned), AnyType) and statics.jit == JAX_JIT_NAME and jitted is not None:
        returned = Instance(jitted.node, []) if isinstance(jitted.node, TypeInfo) else returned
    return statics.attach_to(ctx.api, returned)


def carried_call_hook(ctx: FunctionContext | MethodContext) -> Type:
    """A call of a function or variable whose signature carries static positions
    (``jitted_types.carried_callee``: what a jitted factory returned, typed as it declares)."""
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    statics = Statics.carried(ctx.api.get_expression_type(callee)) if callee is not None else None
    return ctx.default_return_type if statics is None else _check_call(ctx, needs_evidence=True, statics=statics)


def library_call_hook(ctx: FunctionContext) -> Type:
    """A call of a library function that hands its parameters to a jit's static positions as
    given (``names.JITTED_LIBRARY_FUNCTIONS``): checked as a call of a jitted function."""
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    if not isinstance(callee, RefExpr) or callee.fullname not in JITTED_LIBRARY_FUNCTIONS:
        return ctx.default_return_type
    name, nums, names = JITTED_LIBRARY_FUNCTIONS[callee.fullname]
    return _check_call(ctx, needs_evidence=True, statics=Statics(nums, names, placed=True), caller=name)


def rebound_call_hook(ctx: FunctionContext) -> Type:
    """A call of a function of the module by its name, which the module binds again to what a jit
    makes of it (``solve = jax.jit(solve, static_argnums=0)``, ``names.JITS``): where that binding is
    in force (the call runs later, in a function, or comes after it), the call runs the jitted
    function, and is checked as a call of one (``plain_call_hook``)."""
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    function = callee.node if isinstance(callee, NameExpr) else None
    tree = checked_module(ctx.api)
    if not isinstance(function, FuncDef) or tree is None:
        return ctx.default_return_type
    jitted = _rebound_jits(tree).get(function)
    if jitted is None or innermost_function(ctx.api) is None and jitted.line > ctx.context.line:
        return ctx.default_return_type
    jit = jitted.callee
    statics = (
        named_statics(zip(jitted.arg_names, jitted.args), JITS[jit.fullname]) if isinstance(jit, RefExpr) else None
    )
    if statics is None:
        return ctx.default_return_type
    return _check_call(ctx, needs_evidence=True, statics=statics.resolved(function).of(function), function=function)


def traced_through_hook(ctx: FunctionContext) -> Type:
    """``jax.make_jaxpr(f)(x, y)``, ``jax.eval_shape(f, x, y)`` and ``jax.vmap(f)(x, y)`` of a
    jitted ``f``: each traces the arguments it passes on to ``f`` (but make_jaxpr's own
    ``static_argnums``, and what vmap's ``in_axes`` gives None), so what reaches a static position
    of ``f`` is a tracer, which jit cannot hash (jax 6871) nor compare (jax 20466)."""
    call = ctx.context
    tree = checked_module(ctx.api)
    statics = Statics.carried(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr) or statics is None or tree is None:
        return ctx.default_return_type
    transform = TRACING_TRANSFORMS[call.callee.fullname]
    if call.callee.fullname in (JAX_MAKE_JAXPR, JAX_VMAP):  # what they return takes the arguments
        own = _untraced(ctx, call)
        passed = next((outer for outer in calls(tree.defs) if outer.callee is call), None)
        skip = 0
    else:
        own, passed, skip = (), call, 1
    if passed is None or own is None:
        return ctx.default_return_type
    if statics.nums and _function_target(ctx.api, call.args[0])[1]:  # jax.vmap(obj.method): obj is bound
        statics = statics.bound()
    for place, arg in placed(passed.arg_kinds[skip:], passed.arg_names[skip:], passed.args[skip:]):
        static = place in statics.nums and place not in own if isinstance(place, int) else place in statics.names
        if static:
            report(
                ctx.api,
                phrases.traced_by(transform),
                phrases.call_argument(place, True, phrases.given_to(transform)),
                arg,
            )
    return ctx.default_return_type


def _untraced(ctx: FunctionContext, transform: CallExpr) -> tuple[int, ...] | None:
    """The positions ``jax.make_jaxpr(f, static_argnums=...)`` or ``jax.vmap(f, in_axes)`` passes
    on as they are; None where they cannot be read."""
    if is_vmap(transform):
        return unmapped(transform)
    own = read_statics(ctx)
    return own.nums if own is not None else None


def _mapped(context: Context, place: int | str) -> bool:
    """``context`` calls what ``jax.vmap(f, ...)`` returns, which maps the argument at ``place``
    (or may: ``in_axes`` not read)."""
    vmap = context.callee if isinstance(context, CallExpr) else None
    if not is_vmap(vmap):
        return False
    left = unmapped(vmap)
    return left is None or isinstance(place, str) or place not in left


def is_rebound(tree: MypyFile | None, function: FuncDef) -> bool:
    """``function``'s name is bound again, at the top level of ``tree``, its module as mypy loaded
    it, to a jit of it (``names.JITS``): its calls get ``rebound_call_hook``, and only its, so that the hooks
    other plugins have for a function are not hidden (mypy asks the plugins in turn, and takes
    the first hook given)."""
    return tree is not None and function in _rebound_jits(tree)


_REBOUND: dict[str, tuple[MypyFile, dict[FuncDef, CallExpr]]] = {}
"""Per module, its tree and the ``jax.jit(f, ...)`` calls its top level binds to ``f``'s own name."""


def _rebound_jits(tree: MypyFile) -> dict[FuncDef, CallExpr]:
    """The functions of ``tree`` whose name its top level binds to a jit of the function itself,
    with that call."""
    cached = _REBOUND.get(tree.fullname)
    if cached is not None and cached[0] is tree:
        return cached[1]
    found: dict[FuncDef, CallExpr] = {}
    for stmt in tree.defs:
        if not isinstance(stmt, AssignmentStmt) or len(stmt.lvalues) != 1:
            continue
        value = stmt.rvalue
        if not isinstance(value, CallExpr) or not isinstance(value.callee, RefExpr) or not value.args:
            continue
        target, given = stmt.lvalues[0], value.args[0]
        if value.callee.fullname in JITS and isinstance(target, NameExpr) and isinstance(given, NameExpr):
            if isinstance(given.node, FuncDef) and target.node is given.node:
                found[given.node] = value
    _REBOUND[tree.fullname] = (tree, found)
    return found


def _check_call(
    ctx: MethodContext | FunctionContext,
    needs_evidence: bool,
    statics: Statics | None = None,
    function: FuncDef | None = None,
    caller: str = "",
    staged: bool = False,
) -> Type:
    """The arguments of a call of a jitted function, by the static positions its type carries, or
    ``statics`` of ``function`` (``rebound_call_hook``) or of a library function that jits inside,
    named ``caller`` in the problems; what the function reads through a static parameter is read
    from its definition (``function``, or the decorated ``def`` the call runs). ``staged``: the
    call is a method of the jitted function that takes its arguments (``jitted.lower(x)``), which
    runs none of its code."""
    if not staged:
        _report_stale_global(ctx, function)
    if statics is None and isinstance(ctx, MethodContext):
        statics = Statics.carried(ctx.type)
        if _defined_again(ctx.api, ctx.context):
            return ctx.default_return_type
    if statics is None:
        return ctx.default_return_type
    target, bound = _jitted_target(ctx.api, ctx.context, staged)
    if needs_evidence and statics.nums and bound:
        if statics.holds(0):
            _check_bound_static(ctx.api, ctx.context)
        statics = statics.bound()
    if function is None and isinstance(target, Decorator):
        function = target.func
    for place, expr, typ in placed_arguments(ctx):
        static = statics.holds(place)
        if static and _mapped(ctx.context, place):
            continue  # what jax.vmap maps reaches the position as a tracer (traced_through_hook)
        site = Site(ctx.context, place) if isinstance(ctx.context, CallExpr) else None
        if static:
            reads = _parameter_reads(ctx.api, function, place, bound, typ) if needs_evidence else None
            problem = _argument_problem(ctx.api, expr, typ, needs_evidence, statics.private, site, reads)
        elif needs_evidence and (statics.placed or isinstance(place, str)):
            # jaxtypes.jit checks its traced values itself; a name not placed may be any position
            problem = untraceable_problem(ctx.api, expr, typ, innermost_function(ctx.api))
        else:
            problem = None
        if problem is not None:
            report_argument(ctx.api, problem, place, static, expr, needs_evidence, site, caller)
        elif not static:
            _report_fresh_metadata(ctx.api, place, expr, needs_evidence, site)
    return ctx.default_return_type


def _check_bound_static(api: CheckerPluginInterface, call: Context) -> None:
    """``obj.method(...)`` of a method jitted with its ``self`` static: ``obj`` is the static
    value, which the declaration judges by its class; a class that hashes by identity is reported
    here, at ``obj``, where the module builds it again and again (``built_again``): each instance
    compiles the method again, which the declaration, in another module, cannot see. Not ``self``
    or ``cls`` of the function the call is in, whose class's own code the declaration reads."""
    if not isinstance(call, CallExpr) or not isinstance(call.callee, MemberExpr):
        return
    obj = call.callee.expr
    if _is_own_receiver(api, obj):
        return
    problem = plain_static_problem(api, api.get_expression_type(obj), lenient=True)
    if problem is None or problem.rule is not STATIC_IDENTITY_HASH_STRICT:
        return
    problem = built_again(api, obj, problem, Site(call, 0))
    if problem.rule is STATIC_IDENTITY_HASH:
        report(api, problem, phrases.call_argument(0, True, "this jitted call"), obj)


def _is_own_receiver(api: CheckerPluginInterface, expr: Expression) -> bool:
    """``expr`` names ``self`` (or ``cls``) of the method the code is in, not the first parameter
    of a plain function."""
    function = innermost_function(api)
    if function is None or not function.arguments or not (takes_self(function) or function.is_class):
        return False
    return isinstance(expr, NameExpr) and expr.node is function.arguments[0].variable


def _report_stale_global(ctx: MethodContext | FunctionContext, function: FuncDef | None) -> None:
    """A module-level call of a jitted function that runs code traced with a global's old value
    (``stale_globals``)."""
    call, tree = ctx.context, checked_module(ctx.api)
    if not isinstance(call, CallExpr) or tree is None or innermost_function(ctx.api) is not None:
        return
    function = function or jitted_function(tree, call.callee)
    found = stale_global_problem(tree, function, call) if function is not None else None
    if found is not None:
        report(ctx.api, found[1], found[0], call)


def _report_fresh_metadata(
    api: CheckerPluginInterface, place: int | str, expr: Expression, needs_evidence: bool, site: Site | None
) -> None:
    """A pytree passed in a traced position whose static fields (its treedef, compared at every
    call) the construction of its class fills with a callable made afresh
    (``value_origins.made_in_construction``): each instance built is a new treedef, and jit
    traces again. Reported where the callable is made, as for a static argument."""
    stored = made_in_construction(api, expr, recorder(api), expr.line, innermost_function(api), is_static_field)
    call = phrases.call_argument(place, False, phrases.jitted_call_at(expr.line, "jitted"))
    for made in stored:
        report(api, _fresh_verdict(api, made.fresh, needs_evidence, site), call, made.at)


def report_argument(
    api: CheckerPluginInterface,
    problem: Problem,
    place: int | str,
    static: bool,
    expr: Expression,
    needs_evidence: bool,
    site: Site | None,
    jit: str = "",
) -> None:
    """``problem`` of the argument ``expr`` passed at ``place`` of a call of a function jitted
    (by ``jit``, where it is not jax's: ``eqx.filter_jit``), reported at the argument; a callable
    made afresh that the construction of a class of the module makes and stores
    (``value_origins.made_in_construction``) is reported where it is made, the code to change,
    each such place with its own words and evidence (``fresh_problem``)."""
    fresh = problem.rule in (STATIC_FRESH_CALLABLE, STATIC_FRESH_CALLABLE_STRICT)
    stored = made_in_construction(api, expr, recorder(api), expr.line, innermost_function(api)) if fresh else []
    if not stored:
        report(api, problem, phrases.call_argument(place, static, f"this {jit or 'jitted'} call"), expr)
    call = phrases.call_argument(place, static, phrases.jitted_call_at(expr.line, jit or "jitted"))
    for made in stored:
        report(api, _fresh_verdict(api, made.fresh, needs_evidence, site), call, made.at)


def placed_arguments(ctx: FunctionContext | MethodContext) -> Iterator[tuple[int | str, Expression, Type]]:
    """The arguments of a call, each with its place (``statements.placed``) and its type."""
    kinds = [kind for group in ctx.arg_kinds for kind in group]
    names = [name for group in ctx.arg_names for name in group]
    typed = [(expr, typ) for exprs, types in zip(ctx.args, ctx.arg_types) for expr, typ in zip(exprs, types)]
    for place, (expr, typ) in placed(kinds, names, typed):
        yield place, expr, typ


def _defined_again(api: CheckerPluginInterface, context: Context) -> bool:
    """``context`` calls by name a function the module defines at its top level, whose name a
    later top-level statement binds again (a second ``def loss``, which mypy rejects and keeps
    typed as the first) before the call runs (before its line at the top level; anywhere, from a
    function, which runs later): the call runs that binding, not the one its type describes."""
    tree = checked_module(api)
    callee = context.callee if isinstance(context, CallExpr) else None
    target = callee.node if isinstance(callee, NameExpr) else None
    if tree is None or not isinstance(target, (FuncDef, Decorator)) or target not in tree.defs:
        return False
    top_level = innermost_function(api) is None
    function = target.func if isinstance(target, Decorator) else target
    jitted = _rebound_jits(tree).get(function)  # ``f = jax.jit(f)`` binds the function itself, jitted
    return any(
        target.line < stmt.line
        and (not top_level or stmt.line < context.line)
        and _binds(stmt, target.name)
        and not (isinstance(stmt, AssignmentStmt) and stmt.rvalue is jitted)
        for stmt in tree.defs
    )


def _binds(stmt: Node, name: str) -> bool:
    """``stmt`` binds ``name``: a ``def`` (decorated or not), a class, or an assignment to it."""
    if isinstance(stmt, (FuncDef, Decorator, ClassDef)):
        return stmt.name == name
    return isinstance(stmt, AssignmentStmt) and any(is_name(lvalue, name) for lvalue in stmt.lvalues)


def _jitted_target(api: CheckerPluginInterface, context: Context, staged: bool = False) -> tuple[Node | None, bool]:
    """What a call of a jitted function calls (the decorated ``def``, a class attribute holding
    one), where the call names it, and whether it binds its first argument: ``obj.method(...)``,
    ``super().method(...)``, ``Class.method(...)`` of a class method or ``obj(...)`` of a method
    (``__call__``) jitted with ``jax.jit`` in a class body: jax's jitted functions bind like
    functions, so ``obj`` (or ``self``, or the class) is passed first (``jaxtypes.jit``'s
    ``Jitted`` says so in its type, through ``__get__``). So is ``obj.method`` passed on before
    the call (``_taken_from``: ``jax.vmap(obj.method)(x)``); ``obj`` may be typed by a type
    variable or a named tuple (``_instance``). ``staged``: the call is ``callee.lower(...)`` (or
    another stage), whose arguments are those of ``callee(...)``, the first one included: a stage
    of a method reached through its object (``self._step.lower(self, x)``) binds nothing."""
    callee = context.callee if isinstance(context, CallExpr) else None
    if staged and isinstance(callee, MemberExpr):
        return _function_target(api, callee.expr)[0], False
    return _function_target(api, callee)


def _function_target(api: CheckerPluginInterface, callee: Expression | None) -> tuple[Node | None, bool]:
    """What the jitted function ``callee`` names, and whether it binds its first argument
    (``_jitted_target``)."""
    if callee is not None:
        callee = _taken_from(api, callee, innermost_function(api))
    if isinstance(callee, SuperExpr) and callee.info is not None:
        symbol = next((base.names[callee.name] for base in callee.info.mro[1:] if callee.name in base.names), None)
    elif isinstance(callee, MemberExpr) and (class_object := _class_object(api, callee.expr)) is not None:
        symbol = class_object.get(callee.name)
        node = symbol.node if symbol is not None else None
        return node, isinstance(node, Decorator) and node.func.is_class  # Class.method binds no self
    elif isinstance(callee, MemberExpr):
        owner = _instance(api.get_expression_type(callee.expr))
        held = _held_method(api, owner.type, callee.name) if owner is not None else None
        if held is not None:  # obj.step(...), the class having kept self.step = jax.vmap(self._step)
            return held, not held.func.is_static
        symbol = owner.type.get(callee.name) if owner is not None else None
    elif isinstance(callee, RefExpr):
        called = _called_object(api, callee) if isinstance(callee.node, Var) else None
        return called or (callee.node, False)
    elif callee is not None:  # obj(...): the jitted method is obj's __call__
        owner = _instance(api.get_expression_type(callee))
        symbol = owner.type.get("__call__") if owner is not None else None
    else:
        return None, False
    node = symbol.node if symbol is not None else None
    if isinstance(node, Decorator):
        return node, not node.func.is_static  # a class method binds its class as an instance method binds self
    if isinstance(node, Var) and not node.is_initialized_in_class:  # self.loss(...): an object called
        return _called_object(api, callee) or (node, False)
    return node, isinstance(node, Var) and node.is_initialized_in_class


def _held_method(api: CheckerPluginInterface, info: TypeInfo, attribute: str) -> Decorator | None:
    """The jitted method of ``info`` whose bound method, or what a call made of it, the class's
    methods keep in ``attribute`` (``metadata.HeldMethods``, recorded where the class is
    defined: read here in any module, whose cache keeps no method bodies); where its branches keep
    several, the first jitted one, if every jitted one has the same static positions (a branch
    that keeps a method no jit wraps, ``self.normalize = self.normalize_numpy``, passes the
    arguments as written, and has no static position to fill)."""
    for base in info.mro:
        record = HeldMethods.read(base)
        methods = record.attributes.get(attribute) if record is not None else None
        if methods is None:
            continue
        recorder(api).looked_through(base)
        symbols = [info.get(method) for method in methods]
        if any(symbol is None for symbol in symbols):
            return None
        held = [symbol.node for symbol in symbols if symbol is not None and isinstance(symbol.node, Decorator)]
        jitted = [
            (decorated, statics) for decorated in held if (statics := decorated_statics(api, decorated)) is not None
        ]
        positions = {_positions(statics) for _, statics in jitted}
        return jitted[0][0] if len(positions) == 1 else None
    return None


def _positions(statics: Statics) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Static positions as a value two jitted functions can be compared by."""
    return statics.nums, statics.names


def _called_object(api: CheckerPluginInterface, callee: Expression) -> tuple[Node, bool] | None:
    """The ``__call__`` that calling ``callee``, a variable or attribute holding an object, runs
    (bound to it), where its class jits it (as its type carries, or the module jits it); None
    where it does not: a variable holding a jitted function is that function."""
    owner = _instance(api.get_expression_type(callee))
    symbol = owner.type.get("__call__") if owner is not None else None
    node = symbol.node if symbol is not None else None
    if not isinstance(node, Decorator) or decorated_statics(api, node) is None:
        return None
    return node, not node.func.is_static


def _taken_from(api: CheckerPluginInterface, callee: Expression, scope: FuncDef | None) -> Expression:
    """Where the jitted function a call calls was taken: through a name to the one value the
    module gives it, through an attribute of an instance of a class of the module to the one call
    its construction assigns it (``self.f = jax.vmap(self.step)``), and through a call given it
    first that returns it with its static positions (``jax.vmap(obj.method, ...)``, typed as what
    it is given)."""
    for _ in range(MAX_STEPS):
        if isinstance(callee, NameExpr):
            made = origins(api, callee, callee.line, scope)
            if len(made) != 1 or made[0] is callee:
                return callee
            callee = made[0]
        elif isinstance(callee, MemberExpr) and isinstance(once := _constructed_once(api, callee), CallExpr):
            if not _passes_on(api, once):
                return callee
            callee = once
        elif isinstance(callee, CallExpr) and _passes_on(api, callee):
            callee = callee.args[0]
        else:
            return callee
    return callee


def _constructed_once(api: CheckerPluginInterface, attribute: MemberExpr) -> Expression | None:
    """The one value the construction of ``attribute``'s class (a class of the module checked,
    whose methods' bodies every mode has) assigns it, where no other method assigns it."""
    owner = _instance(api.get_expression_type(attribute.expr))
    tree = checked_module(api)
    if owner is None or tree is None or owner.type.module_name != tree.fullname:
        return None
    assigned = assigned_anywhere(owner.type.defn, attribute.name)
    constructed = assigned_values(owner.type.defn, attribute.name)
    return constructed[0] if len(assigned) == 1 and assigned == constructed else None


def _passes_on(api: CheckerPluginInterface, call: CallExpr) -> bool:
    """``call`` returns its first argument's jitted function, static positions and all."""
    if not call.args:
        return False
    given = Statics.carried(api.get_expression_type(call.args[0]))
    returned = Statics.carried(api.get_expression_type(call))
    return given is not None and returned is not None and _positions(given) == _positions(returned)


def _class_object(api: CheckerPluginInterface, expr: Expression) -> TypeInfo | None:
    """The class ``expr`` is: its name, or what holds one (a class method's ``cls``,
    ``type(self)``)."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo):
        return expr.node
    proper = get_proper_type(api.get_expression_type(expr))
    held = _instance(proper.item) if isinstance(proper, TypeType) else None
    return held.type if held is not None else None


def _instance(typ: Type) -> Instance | None:
    """The instance type behind ``typ``: itself, a type variable's bound, a named tuple's class."""
    proper = get_proper_type(typ)
    if isinstance(proper, TypeVarType):
        proper = get_proper_type(proper.upper_bound)
    if isinstance(proper, TupleType):
        proper = proper.partial_fallback
    return proper if isinstance(proper, Instance) else None


def _parameter_reads(
    api: CheckerPluginInterface, function: FuncDef | None, place: int | str, bound: bool, typ: Type
) -> Reads:
    """What the jitted ``function`` reads through the parameter a call fills at ``place``."""
    if function is None:
        return None
    names = function.arg_names  # a definition from the cache keeps its parameters' names only
    index = place + bound if isinstance(place, int) else names.index(place) if place in names else None
    return parameter_reads_of(api, function, index, typ) if index is not None else None


def _argument_problem(
    api: CheckerPluginInterface,
    expr: Expression,
    typ: Type,
    needs_evidence: bool,
    private: bool,
    site: Site | None,
    reads: Reads = None,
) -> Problem | None:
    """What is wrong with a value of type ``typ``, written ``expr``, in a static position (``site``).

    With ``needs_evidence`` (plain ``jax.jit``), a bound method is reported only where its
    object changes after it is made, and so is a value of a class that hashes by value but
    whose instances change (``v.val = 0`` after ``f(v)``: jit finds the old code for it). A
    ``private`` function's callers are judged by the collection interfaces they pass (a public
    one's declaration is). With ``reads``, only a change to what the function reads through the
    parameter counts. A value typed ``Any`` is judged as the class the module builds it as, where
    it shows one (``value_origins.built_class``: ``b = setup(x)``, an unannotated function)."""
    typ = _built_type(api, expr, typ)
    problem = plain_static_problem(api, typ, lenient=needs_evidence, strict_collections=private, reads=reads)
    passed_on = (
        problem is not None
        and _private_parameter(api, expr)
        and plain_static_problem(api, typ, lenient=needs_evidence, reads=reads) is None
    )
    if isinstance(expr, (NameExpr, ConditionalExpr, OpExpr)):  # values made elsewhere, over the declared type
        made = origin_verdict(api, expr, recorder(api), expr.line, innermost_function(api), private_callers=passed_on)
        problem = made.problem or (None if made.known or passed_on else problem)
    elif isinstance(expr, CallExpr) and problem is None:  # what a call makes, where its type does not say
        problem = origin_verdict(api, expr, recorder(api), expr.line, innermost_function(api)).problem
    if problem is not None and problem.rule is STATIC_IDENTITY_HASH_STRICT:
        problem = built_again(api, expr, problem, site)
    problem = problem or tracer_problem(api, expr) or fresh_problem(api, expr, needs_evidence, site)
    if problem is not None:
        return problem
    if not isinstance(expr, MemberExpr):
        return _changed_value(api, expr, typ, reads) if needs_evidence else None
    if needs_evidence:
        return changed_bound_method(api, expr)
    return bound_method_problem(expr, api.get_expression_type(expr.expr), recorder(api))


def _built_type(api: CheckerPluginInterface, expr: Expression, typ: Type) -> Type:
    """``typ``, or where it is ``Any``, an instance of the class the module builds ``expr`` as."""
    if not isinstance(get_proper_type(typ), AnyType) or not isinstance(expr, NameExpr):
        return typ
    info = built_class(api, expr, expr.line, innermost_function(api))
    return typ if info is None else Instance(info, [AnyType(TypeOfAny.special_form)] * len(info.defn.type_vars))


def _private_parameter(api: CheckerPluginInterface, expr: Expression) -> bool:
    """``expr`` names a parameter of the module-private function it is in, which passes it on: a
    collection interface declared there (``Sequence[...]``) is judged, as a private jitted
    function's own parameter is, by what the module's calls pass for it (a list display), not by
    the declaration."""
    function = innermost_function(api)
    return (
        isinstance(expr, NameExpr)
        and function is not None
        and private_name(function.name)
        and any(argument.variable is expr.node for argument in function.arguments)
    )


def built_again(api: CheckerPluginInterface, expr: Expression, problem: Problem, site: Site | None) -> Problem:
    """An identity-hashed value with no evidence that its class goes wrong, reported after all
    where the module builds this value again and again (``jit_evidence.repeated``), or builds an
    equal copy that meets jit at the same ``site`` (``jit_evidence.copied``): each copy compiles
    again, also where a function of the module builds it and returns it (``built_values``). Not
    where what the construction is given is computed from what differs at each iteration: then
    each copy is another static value, which compiles anew whatever it hashes by."""
    for made in built_values(api, expr, expr.line, innermost_function(api)):
        callee = made.callee if isinstance(made, CallExpr) else None
        info = callee.node if isinstance(callee, RefExpr) else None
        given = made.args if isinstance(made, CallExpr) else []
        if not isinstance(info, TypeInfo):
            continue
        used = site.call if site is not None else None
        where = repeated(api, made, shaping=given, used=used) or copied(api, made, site)
        if where is not None:
            return phrases.with_change(
                problem._replace(rule=STATIC_IDENTITY_HASH), phrases.built_again(class_name(info), where)
            )
    return problem


def fresh_problem(
    api: CheckerPluginInterface, expr: Expression, needs_evidence: bool, site: Site | None
) -> Problem | None:
    """``static-fresh-callable`` for a value made afresh (``value_origins.fresh_origin``); for
    plain ``jax.jit``, with the evidence that it is made again and again (in a loop, or in a
    function a loop calls: ``jit_evidence.repeated``) or that an equal copy meets jit at the same
    ``site``, else its opt-in twin: made once, it is one cache entry. Not where the call runs only
    while a jit of the module traces the code around it (``jit_evidence.while_tracing``): there
    the jit it meets is traced into the outer one's program, compiled once per outer trace."""
    if isinstance(expr, LITERALS) or isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo):
        return None  # a literal, a class: nothing made afresh to look for
    if needs_evidence and while_tracing(api, innermost_function(api)):
        return None
    fresh = fresh_origin(api, expr, recorder(api), expr.line, innermost_function(api))
    return _fresh_verdict(api, fresh, needs_evidence, site) if fresh is not None else None


def _fresh_verdict(api: CheckerPluginInterface, fresh: Fresh, needs_evidence: bool, site: Site | None) -> Problem:
    """``static-fresh-callable`` for ``fresh``, with its evidence (``fresh_problem``): made again
    and again, unless what it captures that shapes its program differs at each run (each is
    another program, as for ``jax.jit`` of a fresh function: ``captured_values.shaping_values``)."""
    problem = phrases.fresh_callable(fresh.described)
    if not needs_evidence:
        return problem
    home = made_in(api, fresh.made)
    shaping = shaping_values(api, fresh.made, home) if home is not None else []
    return with_evidence(api, problem, made=fresh.made, through_calls=True, site=site, shaping=shaping)


def _changed_value(api: CheckerPluginInterface, expr: Expression, typ: Type, reads: Reads) -> Problem | None:
    """``static-not-frozen`` for a value of a plain class, or of a dataclass that hashes its
    fields (``unsafe_hash=True``), whose instances change after they are made (a jaxtypes class,
    another dataclass or a trusted type cannot, or is judged by its own rules); not where the
    module makes every value of ``expr`` an instance of other classes (a name the module binds
    again: ``opts = Namespace(...)``, then ``opts = Options(**vars(opts))``); with ``reads``, a
    change to what the jitted function reads."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance) or recorder(api).trusts(proper.type):
        return None
    if not (is_plain_class(proper.type) or hashes_its_fields(proper.type)):
        return None
    change = changes_after_construction(api, expr, proper.type, reads)
    made = made_classes(api, expr, expr.line, innermost_function(api)) if change is not None else None
    if change is None or made is not None and proper.type not in made:
        return None
    return phrases.changing_instances(class_name(proper.type), change)


def plain_static_problem(
    api: CheckerPluginInterface,
    typ: Type,
    *,
    lenient: bool,
    strict_collections: bool = False,
    declaration: bool = False,
    reads: Reads = None,
    found: str | None = None,
    traced: str | None = None,
    value: Expression | None = None,
) -> Problem | None:
    """``static_problem``, with a fix for a plain class (not a jaxtypes field) that hashes by
    identity; ``lenient`` for plain ``jax.jit`` (``Judge.lenient``), ``strict_collections`` and
    ``declaration`` for its static parameters' declarations (``Judge``), ``reads`` for a static
    ``self``: what its method (``traced``) reads, the evidence the caller ``found``, and the
    ``value`` judged, where known (``jit_evidence.with_evidence``)."""
    judge = recorder(api)._replace(lenient=lenient, strict_collections=strict_collections, declaration=declaration)
    problem = static_problem(typ, judge)
    if problem is not None and problem.rule is STATIC_IDENTITY_HASH:
        problem = problem._replace(fix=IDENTITY_HASH_FIX)
        if lenient:
            return with_evidence(api, problem, reads=reads, found=found, traced=traced, value=value)
    return problem
