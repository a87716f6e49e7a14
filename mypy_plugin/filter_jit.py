"""``eqx.filter_jit``: every leaf of its arguments that is no array is static, and the check of
calls that pass a callable made afresh in such a leaf.

filter_jit traces the arrays among its arguments' leaves and keys its cache on the rest, compared
with ``==``: a function, an ``ODETerm`` holding one, an optimizer. A lambda or local function
made anew on each run of the code that passes it compares by identity, so each run compiles again
(diffrax's ``diffeqsolve``, a filter_jit function, given ``ODETerm(local_function)``).

The function filter_jit returns is typed as the one it is given; the plugin marks that callable's
fallback instance (``extra_attrs``), which mypy serialises with the type, so a call of a function
filtered in another module (an installed library's) is checked from the cache, in parallel
workers and in the daemon. Calls are found by the name of what they call
(``filtered_callee``), as mypy looks hooks up.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Decorator, SymbolTableNode, Var
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, ExtraAttrs, Instance, LiteralType, Type, get_proper_type

from mypy_plugin.static_positions import fresh_problem, placed_arguments, report_argument
from mypy_plugin.value_origins import Site

_FILTERED = "__jaxtypes_filtered__"

FACTORY_NAME = "jaxtypes eqx.filter_jit decorator"
"""The name given to what ``eqx.filter_jit(donate=...)`` returns; ``factory_hook`` claims it."""


def filter_jit_hook(ctx: FunctionContext) -> Type:
    """``eqx.filter_jit(f)``, ``@eqx.filter_jit`` and ``eqx.filter_jit(donate=...)``."""
    returned = get_proper_type(ctx.default_return_type)
    if not isinstance(returned, CallableType):
        return ctx.default_return_type
    given = any(name == "fun" and exprs for name, exprs in zip(ctx.callee_arg_names, ctx.args))
    if given:
        return _marked(ctx, returned)
    return returned.copy_modified(name=FACTORY_NAME)


def factory_hook(ctx: FunctionContext) -> Type:
    """The function given to the decorator ``eqx.filter_jit(donate=...)`` returned."""
    returned = get_proper_type(ctx.default_return_type)
    return _marked(ctx, returned) if isinstance(returned, CallableType) else ctx.default_return_type


def _marked(ctx: FunctionContext, returned: CallableType) -> CallableType:
    bool_type = ctx.api.named_generic_type("builtins.bool", [])
    fallback = returned.fallback
    carried = fallback.extra_attrs or ExtraAttrs({})
    attrs = {**carried.attrs, _FILTERED: LiteralType(True, bool_type)}
    extra = ExtraAttrs(attrs, carried.immutable | {_FILTERED}, carried.mod_name)
    marked = Instance(fallback.type, fallback.args, last_known_value=fallback.last_known_value, extra_attrs=extra)
    return returned.copy_modified(fallback=marked)


def is_filtered(typ: Type | None) -> bool:
    """``typ`` is the type of a function ``eqx.filter_jit`` returned (``_marked``)."""
    proper = get_proper_type(typ) if typ is not None else None
    extra = proper.fallback.extra_attrs if isinstance(proper, CallableType) else None
    return extra is not None and _FILTERED in extra.attrs


def filtered_callee(symbol: SymbolTableNode | None) -> bool:
    """The function or variable ``symbol`` names holds what ``eqx.filter_jit`` returned: a
    decorated ``def`` (a method too), or a variable it was assigned to."""
    node = symbol.node if symbol is not None else None
    if isinstance(node, Decorator):
        return is_filtered(node.var.type)
    return isinstance(node, Var) and is_filtered(node.type)


def call_hook(ctx: FunctionContext | MethodContext) -> Type:
    """A call of a filtered function: a callable made afresh, again and again, in an argument
    (``static_positions.fresh_problem``, with its evidence), which filter_jit holds static."""
    for place, expr, _ in placed_arguments(ctx):
        site = Site(ctx.context, place) if isinstance(ctx.context, CallExpr) else None
        problem = fresh_problem(ctx.api, expr, needs_evidence=True, site=site)
        if problem is not None:
            report_argument(ctx.api, problem, place, True, expr, jit="eqx.filter_jit")
    return ctx.default_return_type
