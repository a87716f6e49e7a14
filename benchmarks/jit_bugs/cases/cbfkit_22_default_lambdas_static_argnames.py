"""Source: https://github.com/bardhh/cbfkit/pull/22
Library: plain-jax
Reported: "the JIT-compiled simulator was being recompiled on every execution due to dynamic default arguments. The `execute` function ... defined default values for `sensor`, `estimator`, and `perturbation` (when `None` was passed) using local `lambda` functions or inner `def`s. These closures are new objects on every call. `simulator_jit` lists these arguments in `static_argnames`. When JAX sees a new object for a static argument, it recompiles the function." Measured: ~6.25 s per run before (recompiling each time), ~1.36 s after. The fix (commit f22351b) moved the defaults to module-level functions.
Transcribed: the default handling and the `simulator_jit` call of `execute` in src/cbfkit/simulation/simulator.py at f22351b^, and the `static_argnames` decorator of `simulator_jit` (src/cbfkit/simulation/simulator_jit.py); `simulator_jit`'s body (a `lax.scan` over sensor, estimator, controller, perturbation and integrator) is reduced to a short Euler scan using the sensor, estimator and perturbation, the planner/controller/progress/logging arguments and the return-data formatting are cut, and `execute` keeps only the parameters this path uses. Added a single-integrator dynamics, a forward-Euler integrator, a trace counter and three runs from different initial states.
Hard: each default is a lambda written inline in a conditional expression (`sensor if sensor else (lambda ...)`), bound to a local name and passed by keyword to a function jitted with `static_argnames` through `functools.partial(jax.jit, ...)`; `execute` runs once per simulation, and the driver calls it in a loop.
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import random

traces = 0


@partial(
    jax.jit,
    static_argnames=[
        "dynamics",
        "integrator",
        "sensor",
        "estimator",
        "perturbation",
        "num_steps",
    ],
)
def simulator_jit(
    dt,
    num_steps,
    dynamics,
    integrator,
    sensor,
    estimator,
    perturbation,
    sigma,
    key,
    initial_state,
):
    global traces
    traces += 1

    def step(carry, k):
        x, c = carry
        y = sensor(0.0, x, sigma=sigma, key=k)
        z, c = estimator(0.0, y, None, None, c)
        f, g = dynamics(z)
        u = -z
        xdot = f + g @ u + perturbation(x, u, f, g)(k)
        return (integrator(x, xdot, dt), c), x

    keys = random.split(key, num_steps)
    c0 = jnp.zeros((initial_state.shape[0], initial_state.shape[0]))
    (_, _), xs = jax.lax.scan(step, (initial_state, c0), keys)
    return xs


def single_integrator(x):
    return jnp.zeros_like(x), jnp.eye(x.shape[0])


def forward_euler(x, xdot, dt):
    return x + xdot * dt


def execute(x0, dt, num_steps, dynamics, integrator, sensor=None, estimator=None,
            perturbation=None, sigma=None, key=None):
    if key is None:
        key = random.PRNGKey(0)

    # Handle defaults (locally, as simulator_jit expects non-None)
    # This logic matches simulator() but must be explicit for JIT call prep
    _sensor = sensor if sensor else (lambda t, x, **k: x)
    _estimator = (
        estimator
        if estimator
        else (lambda t, y, z, u, c: (y, c if c is not None else jnp.zeros((len(y), len(y)))))
    )
    _perturbation = (
        perturbation if perturbation else (lambda x, u, f, g: (lambda k: jnp.zeros(x.shape)))
    )
    sigma_val = sigma if sigma is not None else jnp.zeros(0)

    xs = simulator_jit(
        dt=dt,
        num_steps=num_steps,
        dynamics=dynamics,
        integrator=integrator,
        sensor=_sensor,  # expect: static-fresh-callable
        estimator=_estimator,  # expect: static-fresh-callable
        perturbation=_perturbation,  # expect: static-fresh-callable
        sigma=sigma_val,
        key=key,
        initial_state=x0,
    )
    return xs


for x0 in ([1.0, 0.0], [0.0, 2.0], [3.0, -1.0]):
    before = traces
    xs = execute(jnp.array(x0), 0.01, 100, single_integrator, forward_euler)
    print(f"x0={x0}: x_final={xs[-1]}, retraced={traces > before}")
