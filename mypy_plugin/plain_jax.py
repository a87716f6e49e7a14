"""Checks on plain ``jax.jit``, for code written without jaxtypes (``examples/seeds``):

- ``@jax.jit`` on a method of a class that is neither a pytree nor has ``self`` static
  (``jit-method-self``), at the decorator;
- ``static_argnums``/``static_argnames`` naming a parameter declared as a type that hashes by
  identity, is unhashable or is a non-frozen dataclass (the ``static-*`` rules), at the decorator
  or the ``jax.jit(...)`` call;
- a call of a jitted function passing such a value, or a bound method, in a static position,
  at the argument (``static_positions.call_hook``, shared with ``jaxtypes.jit``);
- ``jax.jit(obj.method)`` with ``obj`` a mutable object (``jit-bound-method``).

The static positions travel in the ``JitWrapped`` instance ``jax.jit`` returns (see
``static_positions``), so the call-site check also works on functions jitted in other modules.
The decorator-factory form ``jax.jit(static_argnums=0)`` returns a callable named
``FACTORY_NAME``, so mypy hands the decorated function to ``factory_hook``; for
``partial(jax.jit, ...)`` the ``functools.partial`` hooks run mypy's own partial support first,
then do the same.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from mypy.nodes import CallExpr, Context, Decorator, Expression, FuncDef, MemberExpr, NameExpr, RefExpr, TypeInfo, Var
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Type, get_proper_type

from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.names import CUSTOM_DERIVATIVES, JITS, LAX_TRACED_FUNCTIONS, VALUE_BOUND_METHODS
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import (
    STATIC_DYNAMIC_CHILD,
    STATIC_IDENTITY_HASH,
    STATIC_IDENTITY_HASH_STRICT,
    STATIC_NOT_FROZEN,
    STATIC_UNHASHABLE,
    Rule,
)
from mypy_plugin.captured_values import shaping_values
from mypy_plugin.dataclass_options import declared_eq_false, hashes_its_fields
from mypy_plugin.declared_types import is_open, jaxtypes_role
from mypy_plugin.dependencies import recorder
from mypy_plugin.jit_evidence import (
    jitted_per_call,
    made_in,
    method_reads,
    parameter_reads_of,
    repeated,
    written_while_tracing,
)
from mypy_plugin.jit_statics import named_statics, read_statics
from mypy_plugin.jitted_functions import forwarded_jit, jit_keywords, old_form_places, traced_functions
from mypy_plugin.jit_targets import (
    check_bound_method,
    function_of,
    is_pytree,
    method_owner,
    may_be_registered,
    pytree_mixin,
)
from mypy_plugin.jitted_types import JAX_JIT_NAME, Statics, jits
from mypy_plugin.markers import class_name, function_name
from mypy_plugin.nondiff_positions import carrying
from mypy_plugin.mypy_internals import (
    checked_module,
    enclosing_functions,
    innermost_function,
    partial_call_callback,
    partial_new_callback,
    written_arguments,
)
from mypy_plugin.reporting import report
from mypy_plugin.static_positions import built_again, plain_static_problem
from mypy_plugin.static_values import bound_method_owner, fresh_callable, local_function, made_at
from mypy_plugin.statements import calls, placed
from mypy_plugin.value_origins import Site, fresh_origin, given_problem, spans
from mypy_plugin.value_uses import kept, never_compiled, reused_where_made

FACTORY_NAME = "jaxtypes plain jax.jit decorator"
"""The name given to what ``jax.jit(static_argnums=...)`` returns; ``factory_hook`` claims it."""


def jit_hook(jit: str) -> Callable[[FunctionContext], Type]:
    """The hook of a call of ``jit`` (``names.JITS``): ``jax.jit(f, ...)``, ``@jax.jit``,
    ``jax.jit(static_argnums=...)``, ``jax.pmap(f, static_broadcasted_argnums=...)``."""
    return lambda ctx: _jit_call(ctx, read_statics(ctx, jit), jit)


def forwarder_hook(ctx: FunctionContext) -> Type:
    """A call of a function of the module that jits the function it is given
    (``jitted_functions.Forwarder``: ``cond_jit(f, static_argnums=[0])``): the checks of the jit
    it forwards to, with the static positions it passes on."""
    tree, call = checked_module(ctx.api), ctx.context
    forwarder = forwarded_jit(tree, call.callee) if tree is not None and isinstance(call, CallExpr) else None
    if tree is None or forwarder is None or not isinstance(call, CallExpr):
        return ctx.default_return_type
    jit = JITS[forwarder.jit]
    return _jit_call(ctx, named_statics(jit_keywords(tree, call), jit), jit)


def _jit_call(ctx: FunctionContext, statics: Statics | None, jit: str) -> Type:
    returned = get_proper_type(ctx.default_return_type)
    if not ctx.args or not ctx.args[0]:
        if statics is None or not isinstance(returned, CallableType):
            return ctx.default_return_type
        wrapped = get_proper_type(returned.ret_type)
        if isinstance(wrapped, Instance):
            return returned.copy_modified(name=FACTORY_NAME, ret_type=statics.attach(ctx.api, wrapped))
        return ctx.default_return_type
    written = written_arguments(ctx, 0)
    if not written:
        return ctx.default_return_type
    known = statics is not None
    statics = statics or Statics((), (), jit=jit)
    return _check_jitted(ctx, statics, *written[0], ctx.default_return_type, known=known)


def factory_hook(ctx: FunctionContext) -> Type:
    """The function given to the decorator ``jax.jit(static_argnums=...)`` returned."""
    statics = Statics.carried(ctx.default_return_type)
    written = written_arguments(ctx, 0)
    if statics is None or not written:
        return ctx.default_return_type
    return _check_jitted(ctx, statics, *written[0], ctx.default_return_type)


def _check_jitted(
    ctx: FunctionContext | MethodContext,
    statics: Statics,
    fun: Expression,
    fun_type: Type,
    result: Type,
    known: bool = True,
) -> Type:
    """Check what is being jitted; return ``result`` (a ``JitWrapped``) carrying its static
    positions where they are ``known`` (none is a fact too: every argument is traced)."""
    returned = get_proper_type(result)
    signature = get_proper_type(fun_type)
    if isinstance(signature, CallableType):
        statics = statics.resolved(signature)
    check_bound_method(ctx, fun, statics.jit, needs_evidence=True)
    check_fresh_function(ctx, fun, statics.jit, statics)
    check_hashed_callable(ctx, fun, signature, statics.jit)
    function = function_of(ctx.context, fun)
    if function is not None:
        statics = statics.of(function)
    if function is not None and isinstance(signature, CallableType):
        _check_definition(ctx, function, signature, statics, fun)
    if known or statics.nums or statics.names:
        return statics.attach(ctx.api, returned) if isinstance(returned, Instance) else result
    return result


def check_hashed_callable(ctx: FunctionContext | MethodContext, fun: Expression, typ: Type, jit: str) -> None:
    """``fun`` given to ``jit``, which keys a cache on the callable itself (``jax.jit``, ``jax.pmap``,
    the bodies of jax.lax's control flow): a callable object, or a method bound as a value
    (``_value_bound_self``), that Python cannot hash fails there, and one hashed by identity goes
    wrong with evidence, as a value in a static position does (``_check_callable_object``)."""
    signature = get_proper_type(typ)
    if isinstance(signature, Instance):
        where = phrases.callable_object(class_name(signature.type), jit)
        rules = (STATIC_UNHASHABLE, STATIC_DYNAMIC_CHILD, STATIC_IDENTITY_HASH)
        _check_callable_object(ctx, signature, fun, where, rules)
    holder = _value_bound_self(ctx, fun)
    if holder is not None and isinstance(fun, MemberExpr):
        where = phrases.jitted_bound_method(jit, class_name(holder.type), fun.name)
        _check_callable_object(ctx, holder, fun, where, (STATIC_UNHASHABLE,))
        held = given_problem(ctx.api, fun.expr, recorder(ctx.api), fun.line, innermost_function(ctx.api))
        if held is not None:
            report(ctx.api, held, where, fun)


def lax_hook(ctx: FunctionContext) -> Type:
    """A call of jax.lax's control flow (``names.LAX_TRACED_FUNCTIONS``) that caches the trace of
    each function it is given keyed on that function, hashed as ``jax.jit``'s is
    (``check_hashed_callable``; not ``jax.lax.map``, which keys on a lambda of its own), a method
    bound as ``obj.method`` too (``check_bound_method``: a new object at every run, whose trace
    goes with it). Outside jit it compiles what it traces, so a function made afresh at every run
    compiles at every run; inside a jitted function it is traced once per trace of that function,
    and the module's functions may be traced by another module's jit: a function made afresh
    counts only where the module's own top-level code runs it again and again
    (``check_fresh_function``, ``eager``). Not a call in a deprecated form (``old_form_places``),
    whose functions jax wraps in lambdas of its own, as ``jax.lax.map`` does."""
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
        return ctx.default_return_type
    flow = LAX_TRACED_FUNCTIONS[call.callee.fullname]
    # placed as the call writes them, not by the callee's parameters, which may be ``*args,
    # **kwargs`` (jax 0.5's lax.cond); an argument's type as the call inferred it
    types = {id(arg): typ for args, found in zip(ctx.args, ctx.arg_types) for arg, typ in zip(args, found)}
    for fun in traced_functions(call, flow) if flow.keyed and old_form_places(call, flow) is None else []:
        typ = types[id(fun)] if id(fun) in types else ctx.api.get_expression_type(fun)  # a branch of a display
        check_bound_method(ctx, fun, flow.public, needs_evidence=True)
        check_hashed_callable(ctx, fun, typ, flow.public)
        if not jits(typ):  # what a jit made was judged where it was jitted
            check_fresh_function(ctx, fun, flow.public, eager=True)
    return ctx.default_return_type


def nnx_jit_hook(ctx: FunctionContext) -> Type:
    """``nnx.jit(f)`` and ``@nnx.jit``: flax jits a wrapper of ``f`` anew at every call, keyed
    on ``f``, so a function made afresh compiles afresh as under ``jax.jit``."""
    for fun, _ in written_arguments(ctx, 0)[:1]:
        check_fresh_function(ctx, fun, "nnx.jit")
    return ctx.default_return_type


def check_fresh_function(
    ctx: FunctionContext | MethodContext,
    fun: Expression,
    jit: str = JAX_JIT_NAME,
    statics: Statics | None = None,
    eager: bool = False,
) -> None:
    """``jit`` (``jax.jit``, or another library's jit that keys compiled code on the function) of
    a lambda, a local function or a function a jax transformation makes
    (``jax.jit(jax.grad(f))``), run again and again (``jit_evidence.repeated``): jit caches
    compiled code per function object, and every run makes a new one. Not where what shapes each
    run's program differs at each iteration: what the function captures, or what the call of it
    made right there passes at its ``statics`` (``_given_statics``). Not where each jitted
    function made is stored for later (``value_uses.kept``: one per constraint, in a list), so
    each is compiled once and called again from there; nor where it is only traced or lowered,
    never called or compiled (``value_uses.never_compiled``); nor inside a function the module jits
    (``repeated``): that code runs while jit traces it, and what it jits is traced into the one
    program compiled for that trace. ``eager``: ``jit`` compiles only where no jit traces it (jax.lax's
    control flow), so only the module's top-level code counts as running it again
    (``jit_evidence.repeated``)."""
    module, enclosing = enclosing_functions(ctx.api)
    context = ctx.context
    made: Expression | FuncDef | None = context if isinstance(context, Expression) else None
    function = innermost_function(ctx.api)
    if function is not None and not spans(function, context.line):
        return  # evaluated again while mypy checks a function nested in its own: judged there
    closure: Expression | FuncDef = fun
    if isinstance(context, Decorator):  # @jax.jit on a def inside a function, run with its decorators
        made = context.decorators[0] if context.decorators else None
        described = local_function(context.func.name, module, enclosing)
        closure = context.func
    else:
        described = fresh_callable(fun, module, enclosing)
        made = made_at(fun) if described is not None else made
    if described is None and _may_be_made_elsewhere(fun):  # bound to a variable, a factory's result
        fresh = fresh_origin(ctx.api, fun, recorder(ctx.api), fun.line, function)
        made, described = (fresh.made, fresh.described) if fresh is not None else (made, None)
    where = loop = None
    if described is not None and made is not None:
        home = made_in(ctx.api, made) if isinstance(made, FuncDef) else function
        shaping = shaping_values(ctx.api, closure, home) if home is not None else []
        given = _given_statics(ctx.api, context, statics)
        where = repeated(ctx.api, made, shaping=[*shaping, *given], used=context, eager=eager)
        if where is not None and home is not None:
            loop = _serving_loop(ctx.api, made, context, closure, home, given, eager)
    tree = checked_module(ctx.api)
    if described is None or tree is not None and (kept(tree, context) or never_compiled(tree, context)):
        return
    if where is not None and loop is not None:
        report(ctx.api, phrases.fresh_function_reused(described, where, loop), phrases.jit_call(jit), context)
    elif where is not None:
        report(ctx.api, phrases.fresh_function_again(described, where, eager), phrases.jit_call(jit), context)
    elif not eager and made is not None and (maker := jitted_per_call(ctx.api, made, context)) is not None:
        report(ctx.api, phrases.fresh_function_per_call(described, maker), phrases.jit_call(jit), context)


def _serving_loop(
    api: CheckerPluginInterface,
    made: Context,
    jitted: Context,
    closure: Expression | FuncDef,
    home: FuncDef,
    given: list[Expression],
    eager: bool,
) -> int | None:
    """The loop of ``home`` whose calls each compile of the function jitted at ``jitted`` serves
    (``value_uses.reused_where_made``), where what the function captures, arrays and numbers too,
    differs between the runs that make it (``repeated`` finds no run that makes the same one):
    each run is another program, compiled once for its loop, as a training run per data set.
    None where each run makes the same program, which compiles again for nothing."""
    tree = checked_module(api)
    loop = reused_where_made(tree, jitted, home) if tree is not None else None
    if loop is None:
        return None
    everything = shaping_values(api, closure, home, traced_too=True)
    return loop if repeated(api, made, shaping=[*everything, *given], used=jitted, eager=eager) is None else None


def _given_statics(api: CheckerPluginInterface, jit_call: Context, statics: Statics | None) -> list[Expression]:
    """What the call of the function jitted at ``jit_call``, made right there
    (``jax.jit(f, static_argnums=1)(x, config)``), passes at its ``statics``."""
    function, tree = innermost_function(api), checked_module(api)
    if statics is None or not isinstance(jit_call, CallExpr) or tree is None:
        return []
    for call in calls([function.body] if function is not None else tree.defs):
        if call.callee is jit_call:
            return statics.given(call)
    return []


def _may_be_made_elsewhere(fun: Expression) -> bool:
    """``fun`` is a variable or a call: what it holds is made where the module binds or returns
    it (a function's own name, a decorated one's, is that function)."""
    return isinstance(fun, CallExpr) or isinstance(fun, NameExpr) and isinstance(fun.node, Var)


def _check_callable_object(
    ctx: FunctionContext | MethodContext,
    instance: Instance,
    fun: Expression,
    where: str,
    rules: Collection[Rule] = (STATIC_UNHASHABLE, STATIC_DYNAMIC_CHILD),
) -> None:
    """``jax.jit(obj)`` with ``obj`` a callable object, or a method bound as a value
    (``_value_bound_self``), given ``where``: jit keys its cache on the object, so it fails when
    Python cannot hash it: an unhashable class, a dataclass that compares by value without being
    frozen, or one that hashes its fields while a field holds an array (an equinox module with
    weights), among the ``rules`` asked. An identity-hashed object works, and compiles its state
    in, as ``jax.jit(obj.method)`` does: it goes wrong where it changes after jit traced its
    ``__call__``, or where it is built again, or an equal copy meets the same place
    (``static_positions.built_again``: each compiles)."""
    info = instance.type
    reads = method_reads(ctx.api, info, "__call__")
    problem = plain_static_problem(ctx.api, instance, lenient=True, reads=reads, traced="__call__", value=fun)
    site = _site(ctx.context, fun)
    identity = problem is not None and problem.rule in (STATIC_IDENTITY_HASH, STATIC_IDENTITY_HASH_STRICT)
    if identity and _made_function(ctx, fun):
        return  # a function made afresh: check_fresh_function's
    if problem is not None and problem.rule is STATIC_IDENTITY_HASH_STRICT and site is not None:
        problem = built_again(ctx.api, fun, problem, site)
    unhashable_dataclass = (
        problem is not None
        and problem.rule is STATIC_NOT_FROZEN
        and not (declared_eq_false(info) or hashes_its_fields(info))
    )
    if problem is not None and (problem.rule in rules or unhashable_dataclass):
        report(ctx.api, problem, where, fun)


def _made_function(ctx: FunctionContext | MethodContext, fun: Expression) -> bool:
    """``fun`` is a function made where it is written (``fresh_callable``: a lambda, a local
    function, ``partial(...)``, a transformation's result) or where the module binds it
    (``fresh_origin``)."""
    if fresh_callable(fun, *enclosing_functions(ctx.api)) is not None:
        return True
    return fresh_origin(ctx.api, fun, recorder(ctx.api), fun.line, innermost_function(ctx.api)) is not None


def _site(call: Context, fun: Expression) -> Site | None:
    """Where ``call`` passes ``fun``."""
    places = placed(call.arg_kinds, call.arg_names, call.args) if isinstance(call, CallExpr) else []
    return next((Site(call, place) for place, given in places if given is fun), None)


def _value_bound_self(ctx: FunctionContext | MethodContext, fun: Expression) -> Instance | None:
    """The object of ``obj.method`` where its class binds methods as values
    (``names.VALUE_BOUND_METHODS``): jit keys on the bound method, which hashes as ``obj`` does.
    Only a field that cannot hash is judged there, not one declared an array: JAX code declares
    scalars as arrays, and a module holding a float where it declares ``jnp.ndarray`` hashes."""
    if not isinstance(fun, MemberExpr):
        return None
    owner = get_proper_type(ctx.api.get_expression_type(fun.expr))
    info = bound_method_owner(fun, owner)
    if not isinstance(owner, Instance) or info is None:
        return None
    return owner if any(base.fullname in VALUE_BOUND_METHODS for base in info.mro) else None


def _check_definition(
    ctx: FunctionContext | MethodContext,
    function: FuncDef,
    signature: CallableType,
    statics: Statics,
    fun: Expression,
) -> None:
    """``jit-method-self`` for ``self`` (or a class method's class) jit cannot take; ``static-*``
    for static parameters' types. A private function's callers are all read (``Statics``): its
    parameters are judged by the values they pass, which may be right where the declaration is
    not (``tsave: Array`` always given a tuple); only a static ``self`` is judged here."""
    api = ctx.api
    owner = method_owner(function)
    qualname = function_name(function)
    for index, (name, typ) in enumerate(zip(signature.arg_names, signature.arg_types)):
        static = index in statics.nums or name in statics.names
        self_of = owner if index == 0 else None  # the class whose instance this parameter is
        if self_of is not None and not static:
            problem = _self_problem(api, self_of)
            if problem is not None:
                report(api, problem, qualname, fun)
        elif function.is_class and function.info and index == 0 and not static:
            report(api, phrases.class_object_traced(class_name(function.info)), qualname, fun)
        elif static and (not statics.private or self_of is not None):
            if self_of is not None:
                reads = method_reads(api, self_of, function.name)
            else:
                reads = parameter_reads_of(api, function, index, typ)
            proper = get_proper_type(typ)
            held = self_of or (proper.type if isinstance(proper, Instance) else None)
            found = written_while_tracing(function, index, checked_module(api), held)
            problem = plain_static_problem(
                api,
                typ,
                lenient=True,
                strict_collections=not statics.private,
                declaration=True,
                reads=reads,
                found=found,
                traced=function.name if self_of is not None else None,
            )
            if problem is not None:
                report(api, problem, phrases.parameter(name, qualname), fun)


def _self_problem(api: CheckerPluginInterface, owner: TypeInfo) -> Problem | None:
    """Why jit cannot take ``self`` as a traced argument; None for a pytree."""
    role = jaxtypes_role(owner)
    if role == "static":
        return phrases.static_class_self_traced(class_name(owner))
    if is_pytree(api, owner) or is_open(owner) or may_be_registered(owner) or pytree_mixin(api, owner):
        return None  # a base mypy cannot see, or a base's metaclass or hook, may make it a pytree
    return phrases.plain_class_self(class_name(owner))


def partial_hook(ctx: FunctionContext) -> Type:
    """``partial(jax.jit, static_argnums=...)`` (or of another jit, ``names.JITS``, or of a function
    of the module that forwards to one: ``partial(cond_jit, static_argnums=[0])``), and
    ``partial(jax.custom_vjp, nondiff_argnums=...)``: mypy's own result, carrying the positions."""
    result = partial_new_callback(ctx)
    fun = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    tree, call = checked_module(ctx.api), ctx.context
    if tree is None or fun is None or not isinstance(call, CallExpr):
        return result
    forwarder = forwarded_jit(tree, fun)
    if forwarder is not None:
        public: str | None = JITS[forwarder.jit]
    else:
        public = {**JITS, **CUSTOM_DERIVATIVES}.get(fun.fullname) if isinstance(fun, RefExpr) else None
    if public is None:
        return result
    statics = named_statics(jit_keywords(tree, call), public)
    proper = get_proper_type(result)
    if statics is None or not isinstance(proper, Instance):
        return result
    return statics.attach(ctx.api, proper)


def partial_call_hook(ctx: MethodContext) -> Type:
    """Applying ``partial(jax.jit, ...)`` to a function: the same checks as ``jax.jit(f, ...)``
    (or as the jit it was made of); applying ``partial(jax.custom_vjp, ...)``: what it makes
    carries its nondiff positions (``nondiff_positions``)."""
    result = partial_call_callback(ctx)
    statics = Statics.carried(ctx.type)
    written = written_arguments(ctx, 0)
    if statics is None or not written:
        return result
    if statics.jit in CUSTOM_DERIVATIVES.values():
        return carrying(ctx.api, statics, ctx.arg_types, result)
    return _check_jitted(ctx, statics, *written[0], result)
