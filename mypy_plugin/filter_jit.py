"""``eqx.filter_jit``: every leaf of its arguments that is no array is static, and the check of
calls that pass a callable made afresh in such a leaf.

filter_jit traces the arrays among its arguments' leaves and keys its cache on the rest, compared
with ``==``: a function, an ``ODETerm`` holding one, an optimizer. A lambda or local function
made anew on each run of the code that passes it compares by identity, so each run compiles again
(diffrax's ``diffeqsolve``, a filter_jit function, given ``ODETerm(local_function)``).

The function filter_jit returns is typed as the one it is given; the plugin marks it so
(``jitted_types.mark_filtered``), and finds its calls by the name of what they call
(``jitted_types.filtered_callee``), as mypy looks hooks up.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, NameExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Type, get_proper_type

from mypy_plugin.mypy_internals import written_arguments
from mypy_plugin.jitted_types import carried_signature, is_filtered, mark_filtered, named_type
from mypy_plugin.plain_jax import check_fresh_function
from mypy_plugin.static_positions import carried_call_hook, fresh_problem, placed_arguments, report_argument
from mypy_plugin.value_origins import Site

FACTORY_NAME = "jaxtypes eqx.filter_jit decorator"
"""The name given to what ``eqx.filter_jit(donate=...)`` returns; ``factory_hook`` claims it."""


def filter_jit_hook(ctx: FunctionContext) -> Type:
    """``eqx.filter_jit(f)``, ``@eqx.filter_jit`` and ``eqx.filter_jit(donate=...)``."""
    returned = get_proper_type(ctx.default_return_type)
    if not isinstance(returned, CallableType):
        return ctx.default_return_type
    given = [
        written[0][0]
        for place, name in enumerate(ctx.callee_arg_names)
        if name == "fun" and (written := written_arguments(ctx, place))
    ]
    if given:
        check_fresh_function(ctx, given[0], "eqx.filter_jit")
        return mark_filtered(ctx.api, returned)
    return returned.copy_modified(name=FACTORY_NAME)


def factory_hook(ctx: FunctionContext) -> Type:
    """The function given to the decorator ``eqx.filter_jit(donate=...)`` returned."""
    returned = get_proper_type(ctx.default_return_type)
    if not isinstance(returned, CallableType):
        return ctx.default_return_type
    for fun, _ in written_arguments(ctx, 0)[:1]:
        check_fresh_function(ctx, fun, "eqx.filter_jit")
    return mark_filtered(ctx.api, returned)


def local_call_hook(ctx: FunctionContext) -> Type:
    """A call by a bare name, which mypy gives a function defined inside another function (its
    ``fullname`` is the name alone, so no lookup finds it): checked as ``call_hook`` where the
    name holds what ``eqx.filter_jit`` returned (``@eqx.filter_jit`` on a local ``def step``), as
    a jitted function's where its signature carries static positions (what a jitted factory
    returned: ``static_positions.carried_call_hook``)."""
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    typ = named_type(callee.node) if isinstance(callee, NameExpr) else None
    if is_filtered(typ):
        return call_hook(ctx)
    if carried_signature(typ) is not None:
        return carried_call_hook(ctx)
    return ctx.default_return_type


def call_hook(ctx: FunctionContext | MethodContext) -> Type:
    """A call of a filtered function: a callable made afresh, again and again, in an argument
    (``static_positions.fresh_problem``, with its evidence), which filter_jit holds static."""
    for place, expr, _ in placed_arguments(ctx):
        site = Site(ctx.context, place) if isinstance(ctx.context, CallExpr) else None
        problem = fresh_problem(ctx.api, expr, needs_evidence=True, site=site)
        if problem is not None:
            report_argument(ctx.api, problem, place, True, expr, True, site, jit="eqx.filter_jit")
    return ctx.default_return_type
