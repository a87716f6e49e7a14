"""Source: https://github.com/pyro-ppl/numpyro/pull/2171
Library: plain-jax
Reported: `fori_collect(..., progbar=False)` recreates `loop_fn` as a fresh closure on each call and
runs `maybe_jit(loop_fn, donate_argnums=0)(collection)`; since the jit cache is keyed on function
identity, every `MCMC.run()` paid a full XLA recompilation (0.44s -> 0.08s per run after the fix,
which caches `loop_fn` with `@cached_by` like `_body_fn`).
Transcribed: The no-progress-bar path of numpyro's `fori_collect` (numpyro/util.py, as introduced in
PR #1802) is kept; the progress-bar branches, `collection_size`, `num_chains` handling and docstring
are left out. Minimal stand-ins for numpyro's `maybe_jit` (a thin wrapper over `jax.jit`) and
`cached_by` were added, plus a trace counter and two calls with the same `body_fun`. The mark
sits on the `jax.jit` call inside `maybe_jit`, as for every jit-fresh-function (first written on
the `maybe_jit(loop_fn, ...)` call).
Hard: The checker must see that `maybe_jit` is `jax.jit` and that its target `loop_fn` is a local
function defined inside `fori_collect`, so each call of `fori_collect` jits a fresh closure.
"""
import warnings
from collections import OrderedDict
from functools import partial

import jax
import jax.numpy as jnp
from jax.lax import cond, fori_loop

warnings.filterwarnings("ignore", message="Some donated buffers were not usable")

loop_traces = 0


def identity(x, *args, **kwargs):
    return x


def maybe_jit(fn, *args, **kwargs):
    # numpyro: jit unless control-flow primitives are disabled
    return jax.jit(fn, *args, **kwargs)  # expect: jit-fresh-function


def cached_by(outer_fn, *keys):
    # Restrict cache size to prevent ref cycles.
    max_size = 8
    outer_fn._cache = getattr(outer_fn, "_cache", OrderedDict())

    def _wrapped(fn):
        fn_cache = outer_fn._cache
        if keys in fn_cache:
            fn = fn_cache[keys]
        else:
            fn_cache[keys] = fn
        if len(fn_cache) > max_size:
            fn_cache.popitem(last=False)
        return fn

    return _wrapped


def fori_collect(lower, upper, body_fun, init_val, transform=identity, thinning=1):
    collection_size = (upper - lower) // thinning
    init_val_transformed = transform(init_val)
    start_idx = lower + (upper - lower) % thinning

    @partial(maybe_jit, donate_argnums=2)
    @cached_by(fori_collect, body_fun, transform)
    def _body_fn(i, val, collection, start_idx, thinning):
        val = body_fun(val)
        idx = (i - start_idx) // thinning

        def update_fn(collect_array, new_val):
            return cond(
                idx >= 0,
                collect_array,
                lambda x: x.at[idx].set(new_val),
                collect_array,
                identity,
            )

        def update_collection(collection, val):
            return jax.tree.map(update_fn, collection, transform(val))

        collection = update_collection(collection, val)
        return val, collection, start_idx, thinning

    def map_fn(x):
        nx = jnp.asarray(x)
        return jnp.zeros((collection_size, *nx.shape), dtype=nx.dtype) * nx[None, ...]

    collection = jax.tree.map(map_fn, init_val_transformed)

    def loop_fn(collection):
        global loop_traces
        loop_traces += 1
        return fori_loop(
            0,
            upper,
            lambda i, vals: _body_fn(i, *vals),
            (init_val, collection, start_idx, thinning),
        )

    last_val, collection, _, _ = maybe_jit(loop_fn, donate_argnums=0)(collection)
    return collection


def body_fun(x):
    return x + 1.0


for run in range(3):  # like repeated MCMC.run()
    out = fori_collect(0, 10, body_fun, jnp.zeros(3))
print("loop_fn traces:", loop_traces)  # 3: recompiled on every call
