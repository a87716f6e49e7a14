"""Source: https://github.com/GalacticDynamics/unxt/pull/906
Library: plain-jax
Reported: the pull request adds "One more trap: build the wrapper once, not per call" to unxt's performance guide (docs/guides/perf.md at cd54e7a33b0de55718a10dd5cf9f1ee00a76e5df): "`jax.jit` caches on the _identity_ of the Python function it wraps, not on argument equality. A fresh `@jax.jit def outer_func(...): ...` built inside a loop or a function body is a compile-cache miss on every call"; the guide's example factory `make_outer()` returns a jitted closure, `rebuild_each_call` calls it on every call, and "Rebuilding pays a full retrace-and-compile every call -- tens of milliseconds instead of low microseconds, several-hundred-x slower in practice" (the PR measures about 400x).
Transcribed: the guide's setup cells (imports, `x`, `y`, `qx`, `qy`, `func`, `jitted_quax_func`, the module-level `outer_func`) and the trap cell as written; the IPython `%timeit` lines are replaced by loops of three calls each.
Run: no (unxt and quax are not installed)
Hard: the jitted function is a `def` decorated with `@jax.jit` inside the factory `make_outer`; it runs again for every call of `rebuild_each_call`, which the module calls in a loop.
"""
import functools as ft

import jax
import jax.numpy as jnp
import quax

import unxt as u

x = jnp.linspace(0.1, 10.0, 1000)
y = jnp.linspace(11, 100.0, 1000)

qx = u.Q(x, "m")
qy = u.Q(y, "m")


def func(x, y):
    return jnp.sum((x ** 3 - y ** 3) / (x**2 + y**2))


jitted_quax_func = jax.jit(quax.quaxify(func))


@jax.jit
def outer_func(x, y):
    qx = u.Q(x, "m")
    qy = u.Q(y, "m")

    # This calls the unitful function inside a jitted context
    out = jitted_quax_func(qx, qy)

    return out.ustrip("m")


def make_outer():
    @jax.jit  # expect: jit-fresh-function
    def outer_func(x, y):
        qx = u.Q(x, "m")
        qy = u.Q(y, "m")
        return quax.quaxify(func)(qx, qy).ustrip("m")

    return outer_func


def rebuild_each_call(x, y):
    fn = make_outer()
    return jax.block_until_ready(fn(x, y))


for _ in range(3):  # %timeit rebuild_each_call(x, y)
    rebuild_each_call(x, y)
for _ in range(3):  # %timeit jax.block_until_ready(outer_func(x, y))
    jax.block_until_ready(outer_func(x, y))
