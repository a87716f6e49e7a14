"""Source: https://github.com/google/evojax/blob/acf5252475e4fbf47e0e3f7994c03de11dd3c4ca/evojax/algo/cma_jax.py
Library: plain-jax
Correct: `_tell_core` is jitted with `static_argnums=0`, and what arrives there is `_HyperParameters`, a NamedTuple of three ints (`n_dim`, `pop_size`, `mu`): a tuple hashes and compares by its items, so it is a sound static value (it selects `mu` for `lax.dynamic_slice_in_dim`), and a second optimizer built with the same sizes reuses the compiled update. The array-valued NamedTuples (`_Coefficients`, `_State`) go in traced positions. A checker that treats any class instance in a static position, or any NamedTuple subclass, as identity-hashed would flag it.
Transcribed: `_HyperParameters`, `_Coefficients` (cut to `cm` and `weights`) and `_State` (cut to `mean`, `sigma`, `g`) from evojax/algo/cma_jax.py; `_tell_core`'s decorator, signature and selection-and-recombination step (the step-size and covariance updates are left out); `CMA_ES_JAX.tell` cut to the `_tell_core` call with keyword arguments as written, in a minimal class whose `__init__` builds the three tuples; a trace counter and a driver with two optimizers of the same size were added.
"""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp

traces = 0


class _HyperParameters(NamedTuple):
    n_dim: int
    pop_size: int
    mu: int


class _Coefficients(NamedTuple):
    cm: jnp.ndarray
    weights: jnp.ndarray


class _State(NamedTuple):
    mean: jnp.ndarray
    sigma: jnp.ndarray
    g: int


class CMA_ES_JAX:
    def __init__(self, param_size: int, pop_size: int):
        mu = pop_size // 2
        weights = jnp.log((pop_size + 1) / 2) - jnp.log(jnp.arange(1, pop_size + 1))
        self.hyper_parameters = _HyperParameters(n_dim=param_size, pop_size=pop_size, mu=mu)
        self.coefficients = _Coefficients(cm=jnp.array(1.0), weights=weights / jnp.sum(weights[:mu]))
        self.state = _State(mean=jnp.zeros(param_size), sigma=jnp.array(0.1), g=0)

    def tell(self, fitness: jnp.ndarray, solutions: jnp.ndarray) -> None:
        """Tell evaluation values as fitness."""
        fitness = - fitness
        next_state = _tell_core(hps=self.hyper_parameters, coeff=self.coefficients,
                                state=self.state, fitness=fitness, solutions=solutions)
        self.state = next_state


@partial(jax.jit, static_argnums=0)
def _tell_core(
    hps: _HyperParameters,
    coeff: _Coefficients,
    state: _State,
    fitness: jnp.ndarray,
    solutions: jnp.ndarray,
) -> _State:
    global traces
    traces += 1
    next_state = state

    g = state.g + 1
    next_state = next_state._replace(g=g)

    ranking = jnp.argsort(fitness, axis=0)

    sorted_solutions = solutions[ranking]

    x_k = jnp.array(sorted_solutions)  # ~ N(m, σ^2 C)
    y_k = (x_k - state.mean) / state.sigma  # ~ N(0, C)

    # Selection and recombination
    y_w = jnp.sum(
        jax.lax.dynamic_slice_in_dim(y_k, 0, hps.mu, axis=0).T *
        jax.lax.dynamic_slice_in_dim(coeff.weights,  0, hps.mu, axis=0),
        axis=1,
    )
    mean = state.mean + coeff.cm * state.sigma * y_w
    next_state = next_state._replace(mean=mean)
    return next_state


key = jax.random.PRNGKey(0)
for seed in range(2):
    es = CMA_ES_JAX(param_size=4, pop_size=8)
    for _ in range(3):
        key, sub = jax.random.split(key)
        solutions = es.state.mean + es.state.sigma * jax.random.normal(sub, (8, 4))
        es.tell(-jnp.sum(solutions ** 2, axis=1), solutions)
    print(es.state.mean)
print("traces:", traces)  # 1: two optimizers' equal hyperparameter tuples share one compile
