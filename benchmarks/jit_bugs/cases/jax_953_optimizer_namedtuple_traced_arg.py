"""Source: https://github.com/jax-ml/jax/issues/953
Library: plain-jax
Reported: an Optimizer NamedTuple holding the (init, update, get) functions of optimizers.adam, passed as an ordinary argument of a jitted function, fails with a TypeError that a function is not a valid JAX type.
Transcribed: the report's snippet; jax.experimental.optimizers became jax.example_libraries.optimizers (moved since); the report elides ddpg_episode's other parameters and body with '...', so it takes only the optimizer and returns its initial state for 0.0, and LoopState is written as Any.
Hard: the NamedTuple is a pytree, so jit flattens it and meets three functions as leaves; its fields are annotated Callable.
"""
from typing import Any, Callable, NamedTuple, TypeVar

from jax import jit
from jax.example_libraries import optimizers

OptState = TypeVar("OptState")
LoopState = Any

class Optimizer(NamedTuple):
  init: Callable[[Any], OptState]
  update: Callable[[int, Any, OptState], OptState]
  get: Callable[[OptState], Any]

def ddpg_episode(
    optimizer: Optimizer,
) -> LoopState:
  return optimizer.init(0.0)

optimizer = Optimizer(*optimizers.adam(step_size=1e-3))
jit(ddpg_episode)(
    optimizer,  # expect: jit-unsupported-argument
)
