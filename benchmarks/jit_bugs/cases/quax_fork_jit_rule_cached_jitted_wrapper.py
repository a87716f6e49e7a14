"""Source: https://github.com/nstarman/quax/blob/0083251a39997663cebcb5a5445df81134628dd4/src/quax/_primitives.py
Library: plain-jax
Correct: the fork's rule for the jit primitive after its caching fixes (PRs 117 and 124): the wrapper closure `qfun` is still defined inside the rule, but it is jitted only when `_jit_quax_cache` has no entry for the jaxpr and tree structure, and the jitted function is stored in that dict and reused by every later call. jax.jit of a function defined in a function that runs again and again is the pattern of a fresh-function bug; here the jitted object is kept under a key, so it compiles once per jaxpr.
Transcribed: `_jit_quax_cache` and `jit_quax` from src/quax/_primitives.py at 0083251a, unchanged but for comments, which are shortened. `register`, `is_early_inline`, `jit_p` (jax.extend.core.primitives.jit_p), `_make_cache_finalizer` (removes the entry when the jaxpr is collected) and `_Quaxify` (here a callable that counts traces and calls the function) are stand-ins for the fork's modules. The driver applies the rule 10 times to the jit equation of an internal @jax.jit helper, as the PR's benchmark calls a quaxified function 10 times.
"""
import weakref
from typing import Any, no_type_check

import jax
import jax.extend.core as jexc
import jax.numpy as jnp
import jax.tree_util as jtu
from jax.typing import ArrayLike

jit_p = jax.extend.core.primitives.jit_p
traces = 0
_rules: dict = {}


def register(primitive):  # stand-in for quax's dispatch registration
    def decorator(rule):
        _rules[primitive] = rule
        return rule
    return decorator


def is_early_inline(inline) -> bool:  # stand-in for quax._compat.is_early_inline
    return bool(inline)


def _make_cache_finalizer(cache, key):  # stand-in for quax._values._make_cache_finalizer
    def finalize(_ref):
        cache.pop(key, None)
    return finalize


class ArrayValue:  # stand-in for quax.ArrayValue
    pass


class _Quaxify:  # stand-in: with dense arrays only, the quaxified function is the function
    def __init__(self, fn, filter_warning, dynamic=False):
        self.fn = fn

    def __call__(self, *args):
        global traces
        traces += 1
        return self.fn(*args)


# Cache for jit_quax: maps (id(jaxpr), treedef) -> (jaxpr_wref, jitted_fn).
_jit_quax_cache: dict[tuple, tuple[Any, Any]] = {}


@register(jit_p)
def jit_quax(
    *args: ArrayLike | ArrayValue, jaxpr: Any, inline: Any, **kwargs: Any
) -> Any:
    del kwargs

    # Early inline: JAX has already decided to inline the body.
    if is_early_inline(inline):
        return _Quaxify(
            jexc.jaxpr_as_fun(jaxpr),
            True,
            dynamic=False,
        )(*args)

    leaves, treedef = jtu.tree_flatten(args)  # remove all Values

    # Non-inlined path: cache the jax.jit-wrapped quaxify callable so the
    # compiled XLA kernel is reused on subsequent calls with the same jaxpr.
    key = (id(jaxpr), treedef)
    entry = _jit_quax_cache.get(key)
    if entry is None:
        # The cached `jitted` must NOT strongly reference `jaxpr`.
        jaxpr_ref = weakref.ref(jaxpr, _make_cache_finalizer(_jit_quax_cache, key))

        @no_type_check  # for beartype (re-defined per call)
        def qfun(x: Any, _ref: Any = jaxpr_ref) -> Any:
            fn = _Quaxify(jexc.jaxpr_as_fun(_ref()), True, dynamic=False)
            return _Quaxify.__call__(fn, *jtu.tree_unflatten(treedef, x))

        jitted = jax.jit(qfun)
        entry = (jaxpr_ref, jitted)
        _jit_quax_cache[key] = entry

    return entry[1](leaves)  # call without Quax; jax.jit reuses compiled kernel


@jax.jit
def helper(x):  # one of the internal @jit helpers of jnp.histogram2d
    return jnp.searchsorted(jnp.linspace(0.0, 1.0, 11), x)


x = jnp.linspace(0.0, 1.0, 5)
eqn = jax.make_jaxpr(helper)(x).eqns[0]  # the jit equation quax's interpreter meets
for _i in range(10):
    jit_quax(x, **eqn.params)
print("traces:", traces)  # 1
