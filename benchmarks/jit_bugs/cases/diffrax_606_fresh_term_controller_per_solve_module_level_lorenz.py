"""Source: https://github.com/patrick-kidger/diffrax/issues/606
Library: equinox
Correct: `solve` builds `dfx.ODETerm(lorenz)`, `dfx.Tsit5()`, `dfx.PIDController(rtol=1e-4, atol=1e-6, pcoeff=0.4, icoeff=0.3)` and `dfx.SaveAt(ts=ts)` afresh on every call and hands them to `diffeqsolve` (filter_jit), which holds their non-array leaves static. That is fine: `lorenz` is a module-level function (the same object every call) and the other leaves are floats, bools and `None`, so the fresh modules compare equal to the last call's and the second `solve` reuses the compiled solve (the report times "Jit + Integration" against a fast second "Integration" call; the issue is about a slowdown in both since diffrax 0.6.1, not about recompiling). A checker that flags every equinox module made inside a called function would be wrong here.
Transcribed: the report's MWE; the `XLA_FLAGS=--xla_cpu_use_thunk_runtime=false` line (a workaround for an old XLA CPU runtime, since removed from XLA) and the `time` measurements are cut, `ts` is shortened from `jnp.arange(3000)` to `jnp.arange(30)` to keep the run short, and a trace counter in `lorenz` with a print after each of the two calls is added.
"""
import diffrax as dfx
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

traces = 0


def lorenz(t, y, args):
    global traces
    traces += 1
    dy0dt = 10*(y[1] - y[0])
    dy1dt = y[0]*(28 - y[2]) - y[1]
    dy2dt = y[0]*y[1] - 8/3*y[2]
    return jnp.array([dy0dt, dy1dt, dy2dt])

def solve(ts, y0):
    solution = dfx.diffeqsolve(
        dfx.ODETerm(lorenz),
        dfx.Tsit5(),
        t0=ts[0],
        t1=ts[-1],
        dt0=None,
        y0=y0,
        stepsize_controller=dfx.PIDController(rtol=1e-4, atol=1e-6, pcoeff=0.4, icoeff=0.3),
        saveat=dfx.SaveAt(ts=ts),
        max_steps=None
    )
    return solution.ys, solution.stats

ts = jnp.arange(30)
y0 = jnp.array([0., 1., 1.05])

y_pred, stats = solve(ts, y0)
first = traces
y_pred, stats = solve(ts, y0)
print("traced on first call:", first > 0, "traced again on second call:", traces > first)
assert traces == first
