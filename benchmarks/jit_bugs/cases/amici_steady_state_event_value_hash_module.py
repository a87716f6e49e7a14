"""Source: https://github.com/AMICI-dev/AMICI/blob/e07af43349140194c77a4023299f80676698f163/python/sdist/amici/sim/jax/petab.py
Library: equinox
Correct: after PR #3197 the steady-state event passed to the `eqx.filter_jit` methods of `JAXModel` is a `SteadyStateEvent`, an `eqx.Module` holding only `rtol`/`atol` (None by default) whose `__call__` builds `diffrax.steady_state_event(...)` inside the traced region. filter_jit holds it static, but as a Module it hashes and compares by field values, so the instance built anew for each condition equals the previous one and the method compiles once. A checker must not flag a freshly constructed callable eqx.Module whose fields are hashable values.
Transcribed: `SteadyStateEvent` from the file above and the PR's test loop (python/tests/test_jax.py at the same commit, `steady_state_event=SteadyStateEvent()`), with the same minimal `JAXModel.preequilibrate_condition` as the buggy case amici_3197_fresh_steady_state_event_closure.py (64-bit mode as in the test file; `max_steps` 2**13, AMICI's default).
"""
import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import optimistix

jax.config.update("jax_enable_x64", True)  # as in python/tests/test_jax.py

DEFAULT_CONTROLLER_SETTINGS = {
    "atol": 1e-8,
    "rtol": 1e-8,
    "pcoeff": 0.4,
    "icoeff": 0.3,
    "dcoeff": 0.0,
}

DEFAULT_ROOT_FINDER_SETTINGS = {
    "atol": 1e-12,
    "rtol": 1e-12,
}

traces = 0


class JAXModel(eqx.Module):
    def _xdot(self, t, x, p):
        global traces
        traces += 1
        return -p[0] * x

    @eqx.filter_jit
    def preequilibrate_condition(
        self, p, solver, controller, root_finder, steady_state_event, max_steps
    ):
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(self._xdot),
            solver,
            0.0,
            jnp.inf,
            None,
            jnp.array([1.0]),
            args=p,
            stepsize_controller=controller,
            event=diffrax.Event(steady_state_event),
            adjoint=diffrax.DirectAdjoint(),
            max_steps=max_steps,
        )
        return sol.ys[-1]


model = JAXModel()


class SteadyStateEvent(eqx.Module):
    """Steady-state termination event with value-based equality."""

    rtol: float | None = None
    atol: float | None = None

    def __call__(self, *args, **kwargs):
        return diffrax.steady_state_event(rtol=self.rtol, atol=self.atol)(
            *args, **kwargs
        )


def fresh_solver_kwargs():
    # construct brand new instances on every call, mimicking e.g. an
    # optimizer objective that rebuilds solver settings each iteration
    return dict(
        solver=diffrax.Kvaerno5(),
        controller=diffrax.PIDController(**DEFAULT_CONTROLLER_SETTINGS),
        root_finder=optimistix.Newton(**DEFAULT_ROOT_FINDER_SETTINGS),
        steady_state_event=SteadyStateEvent(),
    )


conditions = [1.0, 2.5, 0.3]  # numeric-only differences between calls

for k_val in conditions:
    before = traces
    kwargs = fresh_solver_kwargs()
    model.preequilibrate_condition(
        jnp.array([k_val]),
        kwargs["solver"],
        kwargs["controller"],
        kwargs["root_finder"],
        kwargs["steady_state_event"],
        2**13,
    )
    print(f"k={k_val}: retraced={traces > before}")
