"""Source: https://github.com/netket/netket/commit/474e032d8a93eddbd4dddb55971898bafc724c03
Library: plain-jax
Reported: "Fix jitting in _step_adaptive" (netket PR 2045, for issue 2043, excessive memory use of the adaptive time-stepping integrator): "In the past _step_adaptive was jitted, which was later removed. However, calls to jax.lax.cond remained, which, because it used lambdas, was recompiled at each call." Each adaptive step ran `jax.lax.cond` outside any jit with lambdas made afresh by that call (in `_step_adaptive` and in `set_flag_jax`), so every step compiled the conditional again; the fix replaces them with Python `if`s on NumPy values.
Transcribed: `_step_adaptive` (its body unchanged but for the MPI reduction `mpi_all_jax`, dropped) from netket/experimental/dynamics/_integrator.py at the parent commit, written as a module-level function of the integrator's arguments; `propose_time_step`, `set_flag_jax`, `scaled_error` and `euclidean_norm` from netket/experimental/dynamics/_utils.py (`nkjax.tree_size` replaced by `y.size`); `IntegratorFlags` cut to the flags used; the integrator state as a `flax.struct.dataclass` (netket's `struct.Pytree`) with the fields `_step_adaptive` touches; the solver an embedded Euler/Heun pair (stand-in for netket's RK tableaus) for dy/dt = -y; a backend-compile counter and a driver taking five adaptive steps were added.
Hard: the lambdas are given to `jax.lax.cond`, not to `jax.jit`; the cond runs outside any jit (op by op), where each call with new lambdas compiles anew; the per-step loop is in the module's driver, two calls away.
"""
import enum
from typing import Any

import jax
import jax.numpy as jnp
from flax import struct

compiles = 0


def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


class IntegratorFlags(enum.IntFlag):
    NONE = 0
    INFO_STEP_ACCEPTED = 1 << 0
    WARN_MIN_DT = 1 << 2
    WARN_MAX_DT = 1 << 3
    ERROR_INVALID_DT = 1 << 4


@struct.dataclass
class IntegratorState:
    step_no: int
    step_no_total: int
    t: Any
    y: Any
    dt: Any
    last_norm: Any
    last_scaled_error: Any
    solver_state: Any
    flags: Any


@struct.dataclass
class IntegratorParameters:
    atol: float = 0.0
    rtol: float = 1e-7
    dt_limits: Any = struct.field(pytree_node=False, default=(None, 10.0))


def propose_time_step(dt, scaled_error, error_order, limits):
    """
    Propose an updated dt based on the scheme suggested in Numerical Recipes, 3rd ed.
    """
    SAFETY_FACTOR = 0.95
    err_exponent = -1.0 / (1 + error_order)
    return jnp.clip(
        dt * SAFETY_FACTOR * scaled_error**err_exponent,
        limits[0],
        limits[1],
    )


def set_flag_jax(condition, flags, flag):
    """
    If `condition` is true, `flags` is updated by setting `flag` to 1.
    This is equivalent to the following code, but compatible with jax.jit:
        if condition:
            flags |= flag
    """
    return jax.lax.cond(  # expect: jit-fresh-function
        condition,
        lambda x: x | flag,
        lambda x: x,
        flags,
    )


def euclidean_norm(x):
    return jnp.sqrt(jnp.sum(jnp.abs(x) ** 2))


def scaled_error(y, y_err, atol, rtol, *, last_norm_y=None, norm_fn):
    norm_y = norm_fn(y)
    scale = (atol + jnp.maximum(norm_y, last_norm_y) * rtol) / y_err.size
    return norm_fn(y_err) / scale, norm_y


class HeunEuler:  # stand-in for netket's adaptive RK solvers
    error_order = 1

    def step_with_error(self, f, dt, t, y, solver_state):
        k1 = f(t, y)
        k2 = f(t + dt, y + dt * k1)
        y_heun = y + 0.5 * dt * (k1 + k2)
        y_euler = y + dt * k1
        return y_heun, y_heun - y_euler, solver_state


def _step_adaptive(solver, f, state, norm_fn, parameters, max_dt=None):
    flags = IntegratorFlags(0)

    if max_dt is None:
        actual_dt = state.dt
    else:
        actual_dt = jnp.minimum(state.dt, max_dt)

    # Perform the solving step
    y_tp1, y_err, solver_state = solver.step_with_error(
        f, actual_dt, state.t, state.y, state.solver_state
    )

    scaled_err, norm_y = scaled_error(
        y_tp1,
        y_err,
        parameters.atol,
        parameters.rtol,
        last_norm_y=state.last_norm,
        norm_fn=norm_fn,
    )

    dt_min, dt_max = parameters.dt_limits
    next_dt = propose_time_step(
        actual_dt,
        scaled_err,
        solver.error_order,
        limits=(
            (jnp.maximum(0.1 * state.dt, dt_min) if dt_min else 0.1 * state.dt),
            (jnp.minimum(5.0 * state.dt, dt_max) if dt_max else 5.0 * state.dt),
        ),
    )

    # check if next dt is NaN
    flags = set_flag_jax(
        ~jnp.isfinite(next_dt), flags, IntegratorFlags.ERROR_INVALID_DT
    )

    # check if we are at lower bound for dt
    if dt_min is not None:
        is_at_min_dt = jnp.isclose(next_dt, dt_min)
        flags = set_flag_jax(is_at_min_dt, flags, IntegratorFlags.WARN_MIN_DT)
    else:
        is_at_min_dt = False
    if dt_max is not None:
        is_at_max_dt = jnp.isclose(next_dt, dt_max)
        flags = set_flag_jax(is_at_max_dt, flags, IntegratorFlags.WARN_MAX_DT)

    # accept if error is within tolerances or we are already at the minimal step
    accept_step = jnp.logical_or(scaled_err < 1.0, is_at_min_dt)

    return jax.lax.cond(  # expect: jit-fresh-function
        accept_step,
        # step accepted
        lambda _: state.replace(
            step_no=state.step_no + 1,
            step_no_total=state.step_no_total + 1,
            y=y_tp1,
            t=state.t + actual_dt,
            dt=jax.lax.cond(  # expect: jit-fresh-function
                actual_dt == state.dt,
                lambda _: next_dt,
                lambda _: state.dt,
                None,
            ),
            last_norm=norm_y.astype(state.last_norm.dtype),
            last_scaled_error=scaled_err.astype(state.last_scaled_error.dtype),
            solver_state=solver_state,
            flags=flags | IntegratorFlags.INFO_STEP_ACCEPTED,
        ),
        # step rejected, repeat with lower dt
        lambda _: state.replace(
            step_no_total=state.step_no_total + 1,
            dt=next_dt,
            flags=flags,
        ),
        state,
    )


def decay(t, y):
    return -y


state = IntegratorState(
    step_no=jnp.array(0), step_no_total=jnp.array(0), t=jnp.array(0.0),
    y=jnp.ones(4), dt=jnp.array(0.01), last_norm=jnp.array(0.0),
    last_scaled_error=jnp.array(0.0), solver_state=None, flags=jnp.array(0),
)
solver = HeunEuler()
params = IntegratorParameters()
per_step = []
for _ in range(5):
    before = compiles
    state = _step_adaptive(solver, decay, state, euclidean_norm, params)
    per_step.append(compiles - before)
print("t =", float(state.t), "y[0] =", float(state.y[0]))
print("backend compilations per adaptive step:", per_step)
