"""Source: https://github.com/patrick-kidger/diffrax/issues/466
Library: equinox
Correct: `MLPeqx` keeps its activation in a static field (`eqx.static_field()`) set to `jax.nn.relu`, a module-level function, and `ODEjax` wraps it as a vector field. The reporter's `run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {'method': diffrax.Dopri5(), 'atol': 1e-5, 'rtol': 1e-5})` rebuilds the model, the solver and the tolerances on every call, yet the second identical call runs in ~0.008 s against ~2 s for the first: `diffeqsolve` (filter_jit) holds `relu`, the layer sizes, `Dopri5()` and the float tolerances static, and all compare equal to the previous call's, while the weights are traced. Only a change of tolerance compiles again (a maintainer answered that this is expected: a float held static is part of the cache key), which is right, not a bug. A checker that flags a callable in a static field, or modules rebuilt per call, would be wrong here.
Transcribed: the report's `MLPeqx` and `ODEjax` as posted. The stored copy of the report is cut off after `ODEjax`, before the body of `run_diffrax`, so a minimal `run_diffrax` with the follow-up's signature is written here (the model built from `hidden_dims`, `ODETerm` of it, the options' solver and a `PIDController` with the options' tolerances, `SaveAt` at `num_steps` times), with a trace counter in `MLPeqx.__call__`, and it is called twice with equal arguments as in the follow-up. `eqx.static_field()` is kept as reported (deprecated in favour of `eqx.field(static=True)`, still present in equinox 0.13.8).
"""
import equinox as eqx
import jax
import diffrax
import jax.numpy as jnp

traces = 0


class MLPeqx(eqx.Module):
    layers: list
    activation: callable = eqx.static_field()

    def __init__(self, hidden_dims):
        super().__init__()
        tmp_key = jax.random.split(jax.random.PRNGKey(0), len(hidden_dims) - 1)
        self.layers = [eqx.nn.Linear(hidden_dims[i], hidden_dims[i + 1], key=tmp_key[i]) for i in
                       range(len(hidden_dims) - 1)]
        self.activation = jax.nn.relu

    def __call__(self, x):
        global traces
        traces += 1
        for i in range(len(self.layers) - 1):
            x = self.activation(self.layers[i](x))
        x = self.layers[-1](x)
        return x


class ODEjax(eqx.Module):
    func: MLPeqx

    def __init__(self, hidden_dims):
        super().__init__()
        self.func = MLPeqx(hidden_dims)

    def __call__(self, t, y, args=None):
        return self.func(y)


def run_diffrax(hidden_dims, input_x, t_span, num_steps, options):
    model = ODEjax(hidden_dims)
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(model),
        options['method'],
        t0=t_span[0],
        t1=t_span[1],
        dt0=None,
        y0=input_x,
        stepsize_controller=diffrax.PIDController(rtol=options['rtol'], atol=options['atol']),
        saveat=diffrax.SaveAt(ts=jnp.linspace(t_span[0], t_span[1], num_steps)),
    )
    return sol.ys


hidden_dims = [2, 32, 32, 2]
input_x = jnp.array([1.0, -1.0])

run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
    'method': diffrax.Dopri5(),
    'atol': 1e-5,
    'rtol': 1e-5}).block_until_ready()
first = traces
run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
    'method': diffrax.Dopri5(),
    'atol': 1e-5,
    'rtol': 1e-5}).block_until_ready()
print("traced on first call:", first > 0, "traced again on equal second call:", traces > first)
assert traces == first
