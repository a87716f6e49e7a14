"""The positions that a function with a custom derivative rule (``jax.custom_jvp``,
``jax.custom_vjp``) keeps out of differentiation (``nondiff_argnums``): its rules close over the
values given there as Python values, so a tracer there fails (``custom_vjp`` refuses one) or
escapes its trace (``custom_jvp``; jax issues 20889, 23065). They are carried on the type as a
jit's static positions are, from the construction (``jax.custom_vjp(f, nondiff_argnums=(0,))``,
``@partial(jax.custom_jvp, nondiff_argnums=(1,))``) to each call, where a value that is a tracer
there (``traced_parameters.tracer_problem``) is reported. Only tracers: the rules never hash
these values, so an unhashable one is fine."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_POS, ARG_STAR, Expression, NameExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Type, get_proper_type

from jaxtypes._vocabulary import phrases
from mypy_plugin.jit_statics import read_statics
from mypy_plugin.jitted_types import Statics
from mypy_plugin.reporting import report
from mypy_plugin.static_positions import placed_arguments
from mypy_plugin.traced_parameters import tracer_problem


def construction_hook(public: str) -> Callable[[FunctionContext], Type]:
    """The hook of ``jax.custom_jvp(f, nondiff_argnums=...)`` (``public`` names it): the function
    made carries its nondiff positions."""
    return lambda ctx: carrying(ctx.api, read_statics(ctx, public), ctx.arg_types, ctx.default_return_type)


def carrying(api: CheckerPluginInterface, statics: Statics | None, arg_types: list[list[Type]], result: Type) -> Type:
    """``result`` carrying ``statics``, completed from the signature of the function given first
    (among ``arg_types``), where they are known."""
    proper = get_proper_type(result)
    if statics is None or not (statics.nums or statics.names) or not isinstance(proper, Instance):
        return result
    signature = get_proper_type(arg_types[0][0]) if arg_types and arg_types[0] else None
    return (statics.resolved(signature) if isinstance(signature, CallableType) else statics).attach(api, proper)


def call_hook(ctx: MethodContext) -> Type:
    """A call of a function with a custom derivative rule: a tracer in a nondiff position, also
    from a traced tuple unpacked into the positions (``f(*carry)`` in a ``jax.lax.scan`` step)."""
    statics = Statics.carried(ctx.type)
    if statics is None:
        return ctx.default_return_type
    for place, arg, _ in placed_arguments(ctx):
        if statics.holds(place):
            _report_tracer(ctx.api, statics, place, arg)
    kinds = [kind for group in ctx.arg_kinds for kind in group]
    args = [arg for group in ctx.args for arg in group]
    star = next((index for index, kind in enumerate(kinds) if kind == ARG_STAR), None)
    unpacked = args[star] if star is not None else None
    if isinstance(unpacked, NameExpr):  # fills the positions from its own on
        filled = [n for n in statics.nums if n >= kinds[:star].count(ARG_POS)]
        if filled:
            _report_tracer(ctx.api, statics, f"{filled[0]} (from *{unpacked.name})", unpacked)
    return ctx.default_return_type


def _report_tracer(api: CheckerPluginInterface, statics: Statics, place: int | str, arg: Expression) -> None:
    problem = tracer_problem(api, arg)
    if problem is not None:
        report(api, phrases.nondiff_tracer(problem), phrases.nondiff_argument(place, statics.jit), arg)
