"""Source: https://github.com/matthiaskoenig/sbmlutils/issues/441
Library: equinox
Correct: a diffrax maintainer's illustration of how to write vector fields for diffrax: a module-level function `monoexponential_decay(t, y, k)` and a field-less `eqx.Module` with `__call__` (`MonoexponentialDecay`), the parameter `k` passed through `args`. Wrapped in a new `ODETerm` on every solve, both stay one compilation: `diffeqsolve` (filter_jit) holds the function static, but the module-level function is the same object every time, and two `MonoexponentialDecay()` instances compare equal (an equinox module compares by its fields, none here), while `k`, an array in `args`, is traced. A checker that flags a callable (or a callable module made inside a loop) reaching `diffeqsolve` would be wrong here.
Transcribed: `monoexponential_decay` and `MonoexponentialDecay` from the comment; its further examples (`i1ffl` with a `LinearInterpolation` input, and the rest, cut off in the stored copy) are left out. A driver solving each for three values of `k` (as arrays), building `ODETerm(...)` and `MonoexponentialDecay()` afresh in the loop, with a trace counter in each vector field, is added.
"""
import jax.numpy as jnp
import equinox as eqx
import diffrax as dfx

traces = {"function": 0, "module": 0}


def monoexponential_decay(t, y, k):
    """Format t, y, args: args is a parameter."""
    traces["function"] += 1
    return -k * y

# Making it an eqx.Module does the following: 
# - registers the class as a PyTree (so that JAX can handle it) 
# - turns it into a dataclass (not so relevant in a tiny thing without attributes)
class MonoexponentialDecay(eqx.Module):  
    """Same thing, but as a callable PyTree."""
    def __call__(self, t, y, k):
        traces["module"] += 1
        return -k * y


for k in (0.5, 1.0, 2.0):
    for term in (dfx.ODETerm(monoexponential_decay), dfx.ODETerm(MonoexponentialDecay())):
        sol = dfx.diffeqsolve(term, dfx.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=jnp.array(1.0), args=jnp.array(k))
        assert jnp.allclose(sol.ys[-1], jnp.exp(-k), atol=1e-4)
    print(f"k={k}: traces so far {traces}")

# Each vector field is traced during its first solve only.
first = dict(traces)
sol = dfx.diffeqsolve(dfx.ODETerm(MonoexponentialDecay()), dfx.Tsit5(), t0=0.0, t1=1.0, dt0=0.1, y0=jnp.array(1.0), args=jnp.array(3.0))
assert traces == first
