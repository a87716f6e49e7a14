"""Source: https://github.com/patrick-kidger/diffrax/issues/306
Library: equinox
Reported: "As discussed in #142, memory usage may grow as we integrate more functions because of caching on `jax`'s part", so the reporter tries to clear the caches every so often with `jax.clear_caches()`, which then segfaults after differentiating through `diffeqsolve`. The memory growth comes from the MWE's `solve`, which wraps a new `lambda` in `ODETerm` on every call, so the filter_jit-wrapped `diffeqsolve` (holding the term's function static, compared by identity) compiles and caches again on every call.
Transcribed: the report's `Function` module and `solve`; the `jax.clear_caches()` call (the segfault the issue is about, a separate JAX/diffrax bug) is cut, and a second `grad_f` call plus a trace counter in `Function.__call__` are added to show the retrace.
Hard: the lambda is made inside `solve` on every call (closing over the argument `f`) and reaches the filter_jit boundary inside `ODETerm(...)`, an eqx.Module field; `solve` is itself only `jax.grad`-transformed, not jitted, so each outer call reaches `diffeqsolve` afresh.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
from diffrax import ODETerm, Dopri5, diffeqsolve
from jaxtyping import Array, Float

traces = 0


class Function(eqx.Module):
    a: Float[Array, ""] = eqx.field(converter=jnp.asarray)

    def __call__(self, x: Float[Array, "*batch"]) -> Float[Array, "*batch"]:
        global traces
        traces += 1
        return - self.a * x


def solve(f: Function) -> Float[Array, ""]:
    return diffeqsolve(
        terms=ODETerm(lambda t, x, args: f(x)),  # expect: static-fresh-callable
        solver=Dopri5(),
        t0=0.0,
        t1=1.0,
        dt0=0.1,
        y0=1.0,
    ).ys[0]


grad_f = jax.grad(solve)

f = Function(1.0)
grad_f(f)
before = traces
grad_f(f)
print("second call traced again:", traces > before)
