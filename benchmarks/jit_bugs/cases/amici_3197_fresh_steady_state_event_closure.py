"""Source: https://github.com/AMICI-dev/AMICI/pull/3197
Library: equinox
Reported: "`diffrax.steady_state_event()` returns a new closure on every call, and Python compares closures by identity, not value. Since it's passed as a static argument into the `eqx.filter_jit`-compiled `JAXModel.simulate_condition` / `JAXModel.preequilibrate_condition`, constructing a fresh instance with identical settings on every call (e.g. once per iteration of an optimization loop) silently defeats the JIT cache and forces a full recompilation, even though only numeric parameters changed." The PR's regression test rebuilds the solver settings for each of three conditions and would see 3 traces instead of 1 with `diffrax.steady_state_event()`.
Transcribed: the PR's test loop (`fresh_solver_kwargs`, `DEFAULT_CONTROLLER_SETTINGS`, `DEFAULT_ROOT_FINDER_SETTINGS`, three conditions) with `diffrax.steady_state_event()` as before the fix. `JAXModel.preequilibrate_condition` is reduced to a minimal definition: an `eqx.Module` for x' = -k*x whose filter_jit method runs one `diffeqsolve` to steady state with the given solver, controller and event (AMICI's model code is generated from SBML; the `simulate_condition` half of the test and the trace-counting monkeypatch are cut, a counter in the vector field is used instead; 64-bit mode is switched on as at the top of the PR's test file, and `max_steps` is AMICI's default 2**13 rather than the test's 1000).
Hard: the fresh closure comes from a library factory (`diffrax.steady_state_event()`, which returns a nested function) called inside a helper that builds a dict, and reaches the filter_jit method through `kwargs["steady_state_event"]`; the solver, controller and root finder built alongside it are eqx.Modules that compare by value and must not be flagged.
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


def fresh_solver_kwargs():
    # construct brand new instances on every call, mimicking e.g. an
    # optimizer objective that rebuilds solver settings each iteration
    return dict(
        solver=diffrax.Kvaerno5(),
        controller=diffrax.PIDController(**DEFAULT_CONTROLLER_SETTINGS),
        root_finder=optimistix.Newton(**DEFAULT_ROOT_FINDER_SETTINGS),
        steady_state_event=diffrax.steady_state_event(),  # expect: static-fresh-callable
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
