"""Source: https://github.com/patrick-kidger/optimistix/blob/6415ab15480ebdb7386e17850105ce0dba6786ec/README.md
Library: equinox
Correct: optimistix's quick example solves an implicit-Euler step with optx.fixed_point, an eqx.filter_jit'd function that holds its non-array arguments static. The function fn is defined once at module level (its closed-over y0 and dt are arrays, which optimistix closure-converts and traces), and the solver optx.Newton(rtol=1e-5, atol=1e-5) is an equinox Module whose float tolerances are static, hashable and compared by value. Nothing is made afresh per call, nothing static is mutable: a second fixed_point call, even with a new, equal Newton instance, reuses the compilation. A checker that reported a function or a solver object given to a jitted solve would be wrong here.
Transcribed: the README's quick example as written. Observed (optimistix 0.1.0, equinox 0.13.8, jax 0.10.2): y1 = 1.0792937; in a scratch copy that counts traces of fn and calls fixed_point a second time with a new optx.Newton(rtol=1e-5, atol=1e-5), fn was traced once in all.
"""
import jax.numpy as jnp
import optimistix as optx

# Let's solve the ODE dy/dt=tanh(y(t)) with the implicit Euler method.
# We need to find y1 s.t. y1 = y0 + tanh(y1)dt.

y0 = jnp.array(1.)
dt = jnp.array(0.1)

def fn(y, args):
    return y0 + jnp.tanh(y) * dt

solver = optx.Newton(rtol=1e-5, atol=1e-5)
sol = optx.fixed_point(fn, solver, y0)
y1 = sol.value  # satisfies y1 == fn(y1)
