"""Source: https://github.com/rlouf/mcx/issues/58
Library: plain-jax
Reported: JAX 0.2.6 stopped accepting non-hashable static arguments, so arrays can no longer be marked static; the report names run(), defined in longest_batch_before_turn() in inference/warmup/num_steps_adaptation.py, which marks its array arguments static, and mcx no longer runs with an up-to-date JAX (fixed in mcx pull request 61 by dropping the array positions from static_argnums).
Transcribed: mcx/inference/warmup/num_steps_adaptation.py at commit e49698f7758a3d52f0e8d71426d5cf0a2aefe6e2 (the version the report points to), with np.DeviceArray (removed from JAX) replaced by jax.Array in the annotations; a minimal integrator_step and a call of run were added.
Hard: the parameters are annotated as arrays and named by static_argnums; run is a closure returned by a factory.
"""
from functools import partial
from typing import Callable, Tuple

import jax
from jax import numpy as np

__all__ = ["longest_batch_before_turn"]


def longest_batch_before_turn(integrator_step: Callable) -> Callable:
    """Learn the number of steps one can make before the trajectory makes a
    U-Turn. This routine is part of the adaptive strategy described in [1]_:
    during the warmup phase we run this scheme many times in order to get a
    distribution of numbers of steps before U-Turn. We then sample elements
    from this distribution during inference to use as the number of integration
    steps.

    References
    ----------
    .. [1]: Wu, Changye, Julien Stoehr, and Christian P. Robert. "Faster
            Hamiltonian Monte Carlo by learning leapfrog scale." arXiv preprint
            arXiv:1810.04449 (2018).
    """

    @partial(jax.jit, static_argnums=(0, 1, 2, 3))  # expect: static-dynamic-child
    def run(
        initial_position: jax.Array,
        initial_momentum: jax.Array,
        step_size: float,
        num_integration_steps: int,
    ):
        def cond(state: Tuple) -> bool:
            iteration, position, momentum = state
            return is_u_turn or iteration == num_integration_steps

        def update(state: Tuple) -> Tuple:
            iteration, position, momentum = state
            iteration += 1
            position, momentum = integrator_step(position, momentum, step_size, 1)
            return (iteration, position, momentum)

        result = jax.lax.while_loop(
            cond, update, (0, initial_position, initial_momentum)
        )

        return result[0]

    return run


@partial(jax.jit, static_argnums=(0, 2))  # expect: static-dynamic-child
def is_u_turn(
    initial_position: jax.Array,
    position: jax.Array,
    inverse_mass_matrix: jax.Array,
    momentum: jax.Array,
) -> bool:
    """Detect when the trajectory starts turning back towards the point
    where it started.
    """
    v = np.multiply(inverse_mass_matrix, momentum)
    position_vec = position - initial_position
    projection = np.multiply(position_vec, v)
    return np.where(projection < 0, True, False)


def integrator_step(position, momentum, step_size, num_steps):
    momentum = momentum - step_size * position
    position = position + step_size * momentum
    return position, momentum


run = longest_batch_before_turn(integrator_step)
print(run(np.ones(3), np.ones(3), 0.1, 10))  # expect: static-dynamic-child
