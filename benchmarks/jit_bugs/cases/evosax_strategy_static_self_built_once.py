"""Source: https://github.com/RobertTLange/evosax/blob/d1c38ef1a927d6132a91123bcdb40dee01d6c25a/evosax/strategy.py
Library: plain-jax
Correct: evosax's evolution strategies jit `initialize`, `ask` and `tell` with `@partial(jax.jit, static_argnums=(0,))` on a plain class, and `FitnessShaper.apply` the same way: a static `self` hashed by identity. Every attribute the jitted methods read (`popsize`, `num_dims`, `elite_popsize`, `sigma_init`, the fitness shaper's flags) is set in `__init__` and never assigned again; what changes from generation to generation is the search state, a `flax.struct` pytree passed and returned as a traced argument. The strategy is built once and each method compiles once, so no result is stale and nothing recompiles. A checker that reported every static `self` of a plain class would be wrong here.
Transcribed: the base `Strategy` from evosax/strategy.py (without the base module's own `EvoState`/`EvoParams`, which `SimpleES` replaces, so the base class's annotations naming them are dropped), `SimpleES` with its `EvoState`, `EvoParams`, `update_mean` and `update_sigma` from evosax/strategies/simple_es.py, `FitnessShaper` (without the weight-decay, rank, z-score and range transforms, which the default options leave off) from evosax/utils/reshape_fitness.py, and `get_best_fitness_member` from evosax/utils/helpers.py, all at v0.1.0 (d1c38ef1). The optional `ParameterReshaper` branches (used only when `pholder_params` is given) and the `default_params` docstrings are cut; `chex` (not installed) is replaced by a stand-in holding its three type aliases. The driver is the README's ask-eval-tell loop with a sphere fitness.
"""
from functools import partial
from typing import Any, Optional, Tuple, Union

import jax
import jax.numpy as jnp
from flax import struct


class chex:  # stand-in for the chex type aliases evosax annotates with
    Array = jax.Array
    ArrayTree = Any
    PRNGKey = jax.Array


def get_best_fitness_member(
    x: chex.Array, fitness: chex.Array, state, maximize: bool = False
) -> Tuple[chex.Array, float]:
    """Check if fitness improved & replace in ES state."""
    fitness_min = jax.lax.select(maximize, -1 * fitness, fitness)
    max_and_later = maximize and state.gen_counter > 0
    best_fit_min = jax.lax.select(
        max_and_later, -1 * state.best_fitness, state.best_fitness
    )
    best_in_gen = jnp.argmin(fitness_min)
    best_in_gen_fitness, best_in_gen_member = (
        fitness_min[best_in_gen],
        x[best_in_gen],
    )
    replace_best = best_in_gen_fitness < best_fit_min
    best_fitness = jax.lax.select(
        replace_best, best_in_gen_fitness, best_fit_min
    )
    best_member = jax.lax.select(
        replace_best, best_in_gen_member, state.best_member
    )
    best_fitness = jax.lax.select(maximize, -1 * best_fitness, best_fitness)
    return best_member, best_fitness


class FitnessShaper(object):
    def __init__(
        self,
        centered_rank: Union[bool, int] = False,
        z_score: Union[bool, int] = False,
        norm_range: Union[bool, int] = False,
        w_decay: float = 0.0,
        maximize: Union[bool, int] = False,
    ):
        """JAX-compatible fitness shaping tool."""
        self.w_decay = w_decay
        self.centered_rank = bool(centered_rank)
        self.z_score = bool(z_score)
        self.norm_range = bool(norm_range)
        self.maximize = bool(maximize)

        # Check that only single fitness shaping transformation is used
        num_options_on = self.centered_rank + self.z_score + self.norm_range
        assert (
            num_options_on < 2
        ), "Only use one fitness shaping transformation."

    @partial(jax.jit, static_argnums=(0,))
    def apply(self, x: chex.Array, fitness: chex.Array) -> chex.Array:
        """Max objective trafo, rank shaping, z scoring & add weight decay."""
        if self.maximize:
            fitness = -1 * fitness
        return fitness


class Strategy(object):
    def __init__(
        self,
        popsize: int,
        num_dims: Optional[int] = None,
        pholder_params: Optional[Union[chex.ArrayTree, chex.Array]] = None,
        **fitness_kwargs: Union[bool, int, float]
    ):
        """Base Class for an Evolution Strategy."""
        self.popsize = popsize
        self.num_dims = num_dims
        assert (
            self.num_dims is not None
        ), "Provide either num_dims or pholder_params to strategy."

        # Setup optional fitness shaper
        self.fitness_shaper = FitnessShaper(**fitness_kwargs)

    @property
    def default_params(self):
        """Return default parameters of evolution strategy."""
        params = self.params_strategy
        return params

    @partial(jax.jit, static_argnums=(0,))
    def initialize(self, rng: chex.PRNGKey, params=None):
        """`initialize` the evolution strategy."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Initialize strategy based on strategy-specific initialize method
        state = self.initialize_strategy(rng, params)
        return state

    @partial(jax.jit, static_argnums=(0,))
    def ask(self, rng: chex.PRNGKey, state, params=None):
        """`ask` for new parameter candidates to evaluate next."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Generate proposal based on strategy-specific ask method
        x, state = self.ask_strategy(rng, state, params)
        # Clip proposal candidates into allowed range
        x_clipped = jnp.clip(jnp.squeeze(x), params.clip_min, params.clip_max)
        x_out = x_clipped
        return x_out, state

    @partial(jax.jit, static_argnums=(0,))
    def tell(self, x, fitness: chex.Array, state, params=None) -> chex.ArrayTree:
        """`tell` performance data for strategy state update."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Perform fitness reshaping inside of strategy tell call (if desired)
        fitness_re = self.fitness_shaper.apply(x, fitness)

        # Update the search state based on strategy-specific update
        state = self.tell_strategy(x, fitness_re, state, params)

        # Check if there is a new best member & update trackers
        best_member, best_fitness = get_best_fitness_member(
            x, fitness, state, self.fitness_shaper.maximize
        )
        return state.replace(
            best_member=best_member,
            best_fitness=best_fitness,
            gen_counter=state.gen_counter + 1,
        )

    def initialize_strategy(self, rng: chex.PRNGKey, params):
        """Search-specific `initialize` method. Returns initial state."""
        raise NotImplementedError

    def ask_strategy(self, rng: chex.PRNGKey, state, params):
        """Search-specific `ask` request. Returns proposals & updated state."""
        raise NotImplementedError

    def tell_strategy(self, x: chex.Array, fitness: chex.Array, state, params):
        """Search-specific `tell` update. Returns updated state."""
        raise NotImplementedError


@struct.dataclass
class EvoState:
    mean: chex.Array
    sigma: chex.Array
    weights: chex.Array  # Weights for population members
    best_member: chex.Array
    best_fitness: float = jnp.finfo(jnp.float32).max
    gen_counter: int = 0


@struct.dataclass
class EvoParams:
    c_sigma: float = 0.1  # Learning rate for population std
    c_m: float = 1.0  # Learning rate for population mean
    sigma_init: float = 1.0  # Standard deviation
    init_min: float = 0.0
    init_max: float = 0.0
    clip_min: float = -jnp.finfo(jnp.float32).max
    clip_max: float = jnp.finfo(jnp.float32).max


class SimpleES(Strategy):
    def __init__(
        self,
        popsize: int,
        num_dims: Optional[int] = None,
        pholder_params: Optional[Union[chex.ArrayTree, chex.Array]] = None,
        elite_ratio: float = 0.5,
        sigma_init: float = 1.0,
        **fitness_kwargs: Union[bool, int, float]
    ):
        """Simple Gaussian Evolution Strategy (Rechenberg, 1975)"""
        super().__init__(popsize, num_dims, pholder_params, **fitness_kwargs)
        self.elite_ratio = elite_ratio
        self.elite_popsize = max(1, int(self.popsize * self.elite_ratio))
        self.strategy_name = "SimpleES"

        # Set core kwargs es_params
        self.sigma_init = sigma_init

    @property
    def params_strategy(self) -> EvoParams:
        """Return default parameters of evolution strategy."""
        # Only parents have positive weight - equal weighting!
        return EvoParams(sigma_init=self.sigma_init)

    def initialize_strategy(self, rng: chex.PRNGKey, params: EvoParams) -> EvoState:
        """`initialize` the evolution strategy."""
        weights = jnp.zeros(self.popsize)
        weights = weights.at[: self.elite_popsize].set(1 / self.elite_popsize)

        initialization = jax.random.uniform(
            rng,
            (self.num_dims,),
            minval=params.init_min,
            maxval=params.init_max,
        )
        state = EvoState(
            mean=initialization,
            sigma=jnp.repeat(params.sigma_init, self.num_dims),
            weights=weights,
            best_member=initialization,
        )
        return state

    def ask_strategy(
        self, rng: chex.PRNGKey, state: EvoState, params: EvoParams
    ) -> Tuple[chex.Array, EvoState]:
        """`ask` for new proposed candidates to evaluate next."""
        z = jax.random.normal(rng, (self.popsize, self.num_dims))  # ~ N(0, I)
        x = state.mean + state.sigma * z  # ~ N(m, σ^2 I)
        return x, state

    def tell_strategy(
        self,
        x: chex.Array,
        fitness: chex.Array,
        state: EvoState,
        params: EvoParams,
    ) -> EvoState:
        """`tell` update to ES state."""
        # Sort new results, extract elite, store best performer
        concat_p_f = jnp.hstack([jnp.expand_dims(fitness, 1), x])
        sorted_solutions = concat_p_f[concat_p_f[:, 0].argsort()]
        # Update mean, isotropic/anisotropic paths, covariance, stepsize
        mean, y_k = update_mean(
            sorted_solutions, state.mean, params.c_m, state.weights
        )
        sigma = update_sigma(y_k, state.sigma, params.c_sigma, state.weights)
        return state.replace(mean=mean, sigma=sigma)


def update_mean(
    sorted_solutions: chex.Array,
    mean: chex.Array,
    c_m: float,
    weights: chex.Array,
) -> Tuple[chex.Array, chex.Array]:
    """Update mean of strategy."""
    x_k = sorted_solutions[:, 1:]  # ~ N(m, σ^2 C)
    y_k = x_k - mean
    y_w = jnp.sum(y_k.T * weights, axis=1)
    mean_new = mean + c_m * y_w
    return mean_new, y_k


def update_sigma(
    y_k: chex.Array, sigma: chex.Array, c_sigma: float, weights: chex.Array
) -> chex.Array:
    """Update stepsize sigma."""
    sigma_est = jnp.sqrt(jnp.sum((y_k.T ** 2 * weights), axis=1))
    sigma_new = (1 - c_sigma) * sigma + c_sigma * sigma_est
    return sigma_new


# Instantiate the search strategy
rng = jax.random.PRNGKey(0)
strategy = SimpleES(popsize=20, num_dims=2, elite_ratio=0.5)
es_params = strategy.default_params
state = strategy.initialize(rng, es_params)

# Run ask-eval-tell loop - NOTE: By default minimization!
for t in range(20):
    rng, rng_gen, rng_eval = jax.random.split(rng, 3)
    x, state = strategy.ask(rng_gen, state, es_params)
    fitness = jnp.sum((x - 1.0) ** 2, axis=1)  # sphere centred at (1, 1)
    state = strategy.tell(x, fitness, state, es_params)

# Get best overall population member & its fitness
print(state.best_member, state.best_fitness)
