"""Source: https://github.com/patrick-kidger/diffrax/issues/142
Library: equinox
Reported: memory grows without bound when many ODEs are solved in one script: `vector_field` is defined inside `solve_ode`, so every call hands `diffrax.diffeqsolve` (an `eqx.filter_jit`-wrapped function) a new function inside its `ODETerm`; filter_jit holds that function static and compares it by identity, so each call compiles again and the compilation cache keeps growing (the reporter expected the compilation, but not the memory that is never freed).
Transcribed: the report's `solve_ode`; its `clear_caches` helper (psutil memory reporting and `diffeqsolve.clear_cache()`) is cut, and the loop that calls `solve_ode` repeatedly is written as three calls with a trace counter in the vector field (each call prints a new trace). `y0=1.` is kept as in the report.
Hard: the bad value is a nested `def` re-created on every `solve_ode` call and wrapped in `dfx.ODETerm(...)`, an eqx.Module whose `vector_field` field is a non-array leaf; `diffeqsolve` is filter_jit-wrapped in the library, so the checker must know that diffeqsolve's arguments are held static leaf by leaf.
"""
import jax.numpy as jnp
import diffrax as dfx

traces = 0


def solve_ode():
  def vector_field(t, x, _):
    global traces
    traces += 1
    return -0.1*x
  t = jnp.arange(4800)
  sol = dfx.diffeqsolve(
    terms=dfx.ODETerm(vector_field),  # expect: static-fresh-callable
    solver=dfx.Dopri5(),
    t0=t[0], t1=t[-1], dt0=t[1], y0=1., max_steps=len(t))
  return sol.ys


for _ in range(3):
  before = traces
  solve_ode()
  print("vector_field traced again:", traces > before)
