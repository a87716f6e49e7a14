"""Source: https://github.com/nstarman/quax/pull/117
Library: plain-jax
Reported: "perf: speed ups": quaxify(jnp.histogram2d) took 538 743 us per call against 2 126 us for plain JAX; "`_jit_quax_cache` -- the dominant win (46x on histogram2d)": on main, quax's rule for the jit primitive jitted a new lambda every time a quaxified function met an internal @jax.jit helper, and jit keys compiled code on the function object ("object identity, so a new lambda == a new compilation on every invocation", in the follow-up pull request 124), so every call compiled every helper again. The fix jits the wrapper once per jaxpr and keeps it in a dict.
Transcribed: the rule for the jit (pjit) primitive from quax/_core.py of patrick-kidger/quax at 0685f83b, which the fork's main carried (the fork's own pre-PR file is not in the stored copies); `register`, `quaxify` and `ArrayValue` are minimal stand-ins (a dict of rules, the identity for dense inputs, an empty class), `jax._src.pjit.pjit_p` is `jax.extend.core.primitives.jit_p` and `core.jaxpr_as_fun` is `jax.extend.core.jaxpr_as_fun` in jax 0.10. The driver plays quax's interpreter: it meets the jit equation of an internal @jax.jit helper, as jnp.histogram2d has many, and applies the rule 10 times (the PR's benchmark runs 10 calls); a trace counter was added.
Hard: jax.jit is given flat_fun, a lambda made afresh inside the rule, which the interpreter (the driver's loop) applies once per call of the quaxified function.
"""
from typing import Union

import jax
import jax.extend.core as core
import jax.numpy as jnp
import jax.tree_util as jtu
from jax.typing import ArrayLike

traces = 0
_rules = {}


def register(primitive):  # stand-in for quax.register: a rule per primitive
    def decorator(rule):
        _rules[primitive] = rule
        return rule
    return decorator


def quaxify(fn):  # stand-in: with only dense arrays the quaxified function computes fn
    def quaxified(*args):
        global traces
        traces += 1
        return fn(*args)
    return quaxified


class ArrayValue:  # stand-in for quax.ArrayValue
    pass


@register(jax.extend.core.primitives.jit_p)  # pyright: ignore
def _(*args: Union[ArrayLike, ArrayValue], jaxpr, inline, **kwargs):
    del kwargs
    fun = quaxify(core.jaxpr_as_fun(jaxpr))
    if inline:
        return fun(*args)
    else:
        leaves, treedef = jtu.tree_flatten(args)  # remove all Values
        flat_fun = lambda x: fun(*jtu.tree_unflatten(treedef, x))
        with jax.ensure_compile_time_eval():  # replace the dynamic QuaxTrace
            return jax.jit(flat_fun)(leaves)  # now we can call without Quax.  # expect: jit-fresh-function


@jax.jit
def helper(x):  # one of the internal @jit helpers of jnp.histogram2d
    return jnp.searchsorted(jnp.linspace(0.0, 1.0, 11), x)


x = jnp.linspace(0.0, 1.0, 5)
eqn = jax.make_jaxpr(helper)(x).eqns[0]  # the jit equation quax's interpreter meets
for _i in range(10):
    _(x, **eqn.params)
print("traces:", traces)  # 10: the helper is traced and compiled again on every call
