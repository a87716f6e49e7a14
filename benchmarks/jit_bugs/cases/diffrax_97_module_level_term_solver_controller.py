"""Source: https://github.com/patrick-kidger/diffrax/issues/97
Library: equinox
Correct: `term`, `solver` and `stepsize_controller` are built once at module level (`ODETerm(f)` with a module-level `f`) and reused by every call of the jitted `ivp`; `diffeqsolve` (filter_jit) holds the term's function and the controller's float tolerances static, but they are the same objects every time, and `t1`, the only thing that changes, is traced ("You're not missing anything. `t1` can indeed be traced just fine!"). One compilation serves all calls.
Transcribed: the report's snippet; the unused `einops` import is dropped, and three calls of `ivp` with different `t1` and a trace counter in `f` are added.
"""
import jax 
from diffrax import diffeqsolve, ODETerm, Dopri5, SaveAt, PIDController
import jax.numpy as jnp

traces = 0


def f(t, y, args):
    global traces
    traces += 1
    return -y 

term = ODETerm(f)
solver = Dopri5()
stepsize_controller = PIDController(rtol=1e-5, atol=1e-5)

@jax.jit
def ivp(t1, y0):
  return diffeqsolve(term, solver, t0=0, t1=t1, dt0=0.1, y0=y0, saveat=SaveAt(t1=True), stepsize_controller=stepsize_controller).ys


for t1 in (1.0, 2.0, 3.0):
    before = traces
    ivp(jnp.asarray(t1), jnp.array([1.0, 2.0]))
    print(f"t1={t1}: traced={traces > before}")
