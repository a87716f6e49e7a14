"""Source: https://github.com/patrick-kidger/equinox/issues/972
Library: equinox
Reported: a maintainer's minimal example of a segfault on Linux (JAX 0.5.2): jvp_jvp_impl builds a new lambda and a new functools.partial of jax.jvp on every call and filter-jits that partial right there, and a loop calls it 1000 times; the crash shows only after many such compilations have accumulated (the follow-up jax issue 27201 says it occurs once enough memory is cached, and that 'repeatedly creating and compiling similar small functions occurs during testing').
Transcribed: as reported. Observed (equinox 0.13.8, jax 0.10.2, CPU): no segfault, but every one of the 1000 calls traces and compiles anew (1000 traces counted with a counter added to the lambda in a scratch copy, about 280 s in all), although each call's function is equal in value to the last one (same mat, same structure).
Hard: the function given to eqx.filter_jit is a functools.partial over a lambda that closes over an array made in the same call; the jit is applied inside jvp_jvp_impl, which the module's loop calls repeatedly. The jax.jit line in the other branch builds the same fresh partial (USE_EQUINOX switches between them).
Run: no (its 1000 compilations take about 280 s on CPU, past the run limit)
"""
import functools as ft

import equinox as eqx
import jax
import jax.numpy as jnp


USE_EQUINOX = True
num_iterations = 1000

def jvp_jvp_impl():
    mat = jnp.eye(3)
    vec = jnp.ones(3)

    jvp_solve = lambda v: jax.jvp(jnp.linalg.solve, (mat, v), (mat, v))
    jvp_jvp_solve = ft.partial(jax.jvp, jvp_solve)

    if USE_EQUINOX:
        (out, t_out), (minus_out, tt_out) = eqx.filter_jit(jvp_jvp_solve)([vec], [vec])  # expect: jit-fresh-function
    else:
        (out, t_out), (minus_out, tt_out) = jax.jit(jvp_jvp_solve)([vec], [vec])  # expect: jit-fresh-function


if __name__ == "__main__":
    for _ in range(num_iterations):
        jvp_jvp_impl()
        print(".", end="", flush=True)
