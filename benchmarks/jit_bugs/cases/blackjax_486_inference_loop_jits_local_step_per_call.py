"""Source: https://github.com/blackjax-devs/blackjax/issues/486
Library: plain-jax
Reported: "Potential memory leak when running inference loop in another loop": running the `inference_loop` of "A Quick Introduction to Blackjax" as `for _ in range(1000): inference_loop(..., num_samples=1)` makes the process's memory grow with every outer iteration, and "Redefining everything at each iteration of the for-loop does not help, and neither does `del` nor `gc.collect()`". `inference_loop` decorates a local `one_step` with `@jax.jit`, so every call makes a new jitted function and the `lax.scan` over it is traced and compiled again, each compilation kept in JAX's caches.
Transcribed: `logdensity_fn`, the sampler set-up, `hmc_kernel = jax.jit(hmc.step)` and `inference_loop` from docs/examples/quickstart.md (stored version 371540e, whose `inference_loop` is the one the report quotes); the attached script is not in the stored thread, so the outer loop is written as the report describes it (1,000 iterations cut to 5, each drawing one sample from the last state). BlackJAX is not installed: `blackjax.hmc` is a stand-in returning the same `(init, step)` pair, with a Gaussian random-walk Metropolis step in place of the HMC integrator. The dataset is smaller, the plots are left out, and a trace counter in `one_step` was added.
Hard: `one_step` is a `def` under `@jax.jit` inside `inference_loop`, handed to `jax.lax.scan` rather than called; `inference_loop` is called from a `for` loop at module level.
"""
from typing import Callable, NamedTuple

import numpy as np

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats

traces = 0


class HMCState(NamedTuple):
    position: dict
    logdensity: jax.Array


class SamplingAlgorithm(NamedTuple):
    init: Callable
    step: Callable


def hmc(logdensity_fn, step_size, inverse_mass_matrix, num_integration_steps):  # stand-in for blackjax.hmc
    def init(position):
        return HMCState(position, logdensity_fn(position))

    def step(rng_key, state):
        keys = jax.random.split(rng_key, len(state.position) + 1)
        proposal = {
            name: value + step_size * jnp.sqrt(m) * jax.random.normal(k)
            for (name, value), m, k in zip(state.position.items(), inverse_mass_matrix, keys[1:])
        }
        new_logdensity = logdensity_fn(proposal)
        accept = jnp.log(jax.random.uniform(keys[0])) < new_logdensity - state.logdensity
        new_state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(accept, new, old), HMCState(proposal, new_logdensity), state
        )
        return new_state, accept

    return SamplingAlgorithm(init, step)


rng_key = jax.random.key(20230215)

loc, scale = 10, 20
observed = np.random.normal(loc, scale, size=100)


def logdensity_fn(loc, log_scale, observed=observed):
    """Univariate Normal"""
    scale = jnp.exp(log_scale)
    logpdf = stats.norm.logpdf(observed, loc, scale)
    return jnp.sum(logpdf)


logdensity = lambda x: logdensity_fn(**x)

inv_mass_matrix = np.array([0.5, 0.01])
num_integration_steps = 60
step_size = 1e-3

hmc = hmc(logdensity, step_size, inv_mass_matrix, num_integration_steps)

initial_position = {"loc": 1.0, "log_scale": 1.0}
initial_state = hmc.init(initial_position)

hmc_kernel = jax.jit(hmc.step)


def inference_loop(rng_key, kernel, initial_state, num_samples):
    @jax.jit  # expect: jit-fresh-function
    def one_step(state, rng_key):
        global traces
        traces += 1
        state, _ = kernel(rng_key, state)
        return state, state

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)

    return states


samples = []
state = initial_state
for _ in range(5):
    rng_key, sample_key = jax.random.split(rng_key)
    states = inference_loop(sample_key, hmc_kernel, state, 1)
    state = jax.tree_util.tree_map(lambda x: x[-1], states)
    samples.append(state.position["loc"])
print(len(samples), "samples")
print("traces of one_step:", traces)  # 5: a new jitted one_step, traced and compiled, per call
