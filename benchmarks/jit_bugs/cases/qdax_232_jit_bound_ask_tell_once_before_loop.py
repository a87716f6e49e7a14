"""Source: https://github.com/adaptive-intelligent-robotics/QDax/pull/232
Library: plain-jax
Correct: PR 232 "Remove jax.jit decorators" drops `@partial(jax.jit, static_argnames=("self",))` from `MAPElites.ask`/`tell` and has callers jit the bound methods instead: the updated test builds `ask_jitted = jax.jit(map_elites.ask)` and `tell_jitted = jax.jit(map_elites.tell)` once, after `map_elites` is set up, and calls them in the loop. `MAPElites` is a plain class, but its attributes (`_scoring_function`, `_emitter`, `_metrics_function`, `_repertoire_init`) are only assigned in `__init__`, the repertoire and emitter state travel as traced arguments, and each bound method is jitted once, so the compiled code can neither go stale nor be rebuilt. A checker that flags `jax.jit(obj.method)` on any mutable-looking class would report the two lines.
Transcribed: `MAPElites.__init__`, `ask` and `tell` from qdax/core/map_elites.py at 289b3be (the PR's commit that removes the decorators), docstrings shortened, and the ask/tell loop of `test_map_elites_ask_tell` from tests/core_test/map_elites_test.py there; the repertoire is cut to a NamedTuple with a replace-worse `add`, the mixing emitter to a Gaussian-mutation stand-in with `emit`/`state_update`, the metrics function to a max, the brax scoring function to a quadratic, and `init_ask_tell` to building the initial repertoire directly.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional, Tuple

import jax
import jax.numpy as jnp


class MapElitesRepertoire(NamedTuple):
    genotypes: jax.Array
    fitnesses: jax.Array

    def add(self, genotypes, descriptors, fitnesses, extra_scores):
        better = fitnesses > self.fitnesses
        return MapElitesRepertoire(
            jnp.where(better[:, None], genotypes, self.genotypes),
            jnp.where(better, fitnesses, self.fitnesses),
        )


class MixingEmitter:
    def __init__(self, batch_size: int, sigma: float = 0.1):
        self.batch_size = batch_size
        self.sigma = sigma

    def emit(self, repertoire, emitter_state, key):
        noise = self.sigma * jax.random.normal(key, repertoire.genotypes.shape)
        return repertoire.genotypes + noise, {}

    def state_update(self, emitter_state, repertoire, genotypes, fitnesses, descriptors, extra_scores):
        return emitter_state


def default_qd_metrics(repertoire: MapElitesRepertoire) -> dict[str, jax.Array]:
    return {"max_fitness": jnp.max(repertoire.fitnesses)}


class MAPElites:
    """Core elements of the MAP-Elites algorithm."""

    def __init__(
        self,
        scoring_function: Optional[Callable[..., Any]],
        emitter: MixingEmitter,
        metrics_function: Callable[[MapElitesRepertoire], dict],
        repertoire_init: Callable[..., MapElitesRepertoire] = MapElitesRepertoire,
    ) -> None:
        self._scoring_function = scoring_function
        self._emitter = emitter
        self._metrics_function = metrics_function
        self._repertoire_init = repertoire_init

    def ask(
        self,
        repertoire: MapElitesRepertoire,
        emitter_state: Optional[Any],
        key: jax.Array,
    ) -> Tuple[jax.Array, dict]:
        """Ask the emitter to generate a new batch of genotypes."""
        key, subkey = jax.random.split(key)
        genotypes, extra_info = self._emitter.emit(repertoire, emitter_state, subkey)
        return genotypes, extra_info

    def tell(
        self,
        genotypes: jax.Array,
        fitnesses: jax.Array,
        descriptors: jax.Array,
        repertoire: MapElitesRepertoire,
        emitter_state: Any,
        extra_scores: Optional[dict] = None,
        extra_info: Optional[dict] = None,
    ) -> Tuple[MapElitesRepertoire, Any, dict]:
        """Add new genotypes to the repertoire and update the emitter state."""
        if extra_scores is None:
            extra_scores = {}
        if extra_info is None:
            extra_info = {}
        # add genotypes in the repertoire
        repertoire = repertoire.add(genotypes, descriptors, fitnesses, extra_scores)

        # update emitter state after scoring is made
        emitter_state = self._emitter.state_update(
            emitter_state=emitter_state,
            repertoire=repertoire,
            genotypes=genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            extra_scores={**extra_scores, **extra_info},
        )

        # update the metrics
        metrics = self._metrics_function(repertoire)

        return repertoire, emitter_state, metrics


def scoring_fn(genotypes, key):
    fitnesses = -jnp.sum(genotypes ** 2, axis=1)
    return fitnesses, genotypes[:, :2], {}


batch_size = 10
num_iterations = 5
key = jax.random.PRNGKey(0)
map_elites = MAPElites(
    scoring_function=None,
    emitter=MixingEmitter(batch_size),
    metrics_function=default_qd_metrics,
)
init_variables = jax.random.normal(key, (batch_size, 4))
fitnesses, descriptors, extra_scores = scoring_fn(init_variables, key)
repertoire, emitter_state = MapElitesRepertoire(init_variables, fitnesses), None

ask_jitted = jax.jit(map_elites.ask)
tell_jitted = jax.jit(map_elites.tell)

# Run the algorithm
for _ in range(num_iterations):
    key, subkey = jax.random.split(key)
    # Generate solutions
    genotypes, extra_info = ask_jitted(repertoire, emitter_state, subkey)

    # Evaluate solutions: get fitness, descriptor and extra scores.
    key, subkey = jax.random.split(key)
    fitnesses, descriptors, extra_scores = scoring_fn(genotypes, subkey)

    # Update MAP-Elites
    repertoire, emitter_state, current_metrics = tell_jitted(
        genotypes=genotypes,
        fitnesses=fitnesses,
        descriptors=descriptors,
        repertoire=repertoire,
        emitter_state=emitter_state,
        extra_scores=extra_scores,
        extra_info=extra_info,
    )
print(current_metrics)
