"""Source: https://jan-williams.github.io/OpenReservoirComputing/examples/jit_compatibility/
Library: plain-jax
Reported: OpenReservoirComputing's notebook "JAX JIT Compatibility", "Pattern 1 - closed-over jax.jit (does not work)": "Many ORC layers use Jax sparse BCOO matrices ... BCOO matrices are unhashable. When you write jax.jit(esn.forecast), JAX closes over esn and tries to hash it as a static compile-time constant, which fails because it contains a BCOO."
Transcribed: the notebook's set-up (a trained ESNForecaster on Lorenz-63 data, forecasting len(U_test) steps from the last reservoir state) and Pattern 1's jitted call `jax.jit(esn.forecast)`. ORC is not installed: `ESNForecaster` is a stand-in equinox module holding its reservoir matrix as a BCOO (as ORC's drivers do) with a `forecast(fcast_len, res_state)` method, training is left out, and the data are random.
Hard: the callable given to jax.jit is a bound method of an equinox module, hashed by its fields, one of which is a BCOO (a pytree of index and data arrays); the field is declared `BCOO`.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
from jax.experimental import sparse


class ESNForecaster(eqx.Module):  # stand-in for orc.forecaster.ESNForecaster
    Wr: sparse.BCOO
    Wout: jax.Array

    def __init__(self, data_dim: int, res_dim: int, seed: int = 0):
        key = jax.random.PRNGKey(seed)
        dense = jax.random.normal(key, (res_dim, res_dim)) * (jax.random.uniform(key, (res_dim, res_dim)) < 0.05)
        self.Wr = sparse.BCOO.fromdense(dense)
        self.Wout = jnp.zeros((data_dim, res_dim))

    def forecast(self, fcast_len, res_state):
        def step(r, _):
            r = jnp.tanh(self.Wr @ r)
            return r, self.Wout @ r
        return jax.lax.scan(step, res_state, None, length=fcast_len)[1]


esn = ESNForecaster(data_dim=3, res_dim=500, seed=0)
R = jnp.zeros((2400, 1, 500))
fcast_len = 600
forecast = jax.jit(esn.forecast)(fcast_len, R[-1, 0])  # expect: static-unhashable
