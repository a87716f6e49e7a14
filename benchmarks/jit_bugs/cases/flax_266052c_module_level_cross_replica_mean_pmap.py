"""Source: https://github.com/google/flax/blob/266052cb82ee2e687c34f5d183343c6614c71884/examples/imagenet/train.py
Library: plain-jax
Correct: the fixed ImageNet example: `cross_replica_mean = jax.pmap(lambda x: lax.pmean(x, 'x'), 'x')` is made once, at module level, and `sync_batch_stats` calls that one pmapped function at the end of every epoch, so the averaging program is compiled once. A checker that flags every pmap or jit of a lambda, or a pmapped function called from a function that runs repeatedly, would flag the fix.
Transcribed: `TrainState`, `cross_replica_mean` and `sync_batch_stats` from examples/imagenet/train.py at this commit; `optim.Optimizer`/`optim.DynamicScale` (flax.optim, since removed from flax) are typed `Any`. The training loop is reduced to what reaches `sync_batch_stats`: a replicated state whose `model_state` holds `batch_stats`, synced once per epoch for four epochs; the count of backend compilations (a `jax.monitoring` listener) and the assert were added. Observed (CPU, one device): 1, 2, 2, 2 compilations after the syncs; the second compilation is for the pmapped output fed back in (a pmap-sharded array instead of the replicated input), after which every sync hits the cache.
"""
from typing import Any

import flax
import jax
from flax import jax_utils
from jax import lax
import jax.numpy as jnp

compiles = 0
def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


# flax.struct.dataclass enables instances of this class to be passed into jax
# transformations like tree_map and pmap.
@flax.struct.dataclass
class TrainState:
  step: int
  optimizer: Any  # optim.Optimizer
  model_state: Any
  dynamic_scale: Any  # optim.DynamicScale


# pmean only works inside pmap because it needs an axis name.
# This function will average the inputs across all devices.
cross_replica_mean = jax.pmap(lambda x: lax.pmean(x, 'x'), 'x')


def sync_batch_stats(state):
  """Sync the batch statistics across replicas."""

  # Each device has its own version of the running average batch statistics and
  # we sync them before evaluation.
  new_model_state = state.model_state.copy({
      'batch_stats': cross_replica_mean(state.model_state['batch_stats'])})
  return state.replace(model_state=new_model_state)


model_state = flax.core.freeze(
    {'batch_stats': {'mean': jnp.zeros(4), 'var': jnp.ones(4)}})
state = TrainState(step=0, optimizer=None, model_state=model_state,
                   dynamic_scale=None)
state = jax_utils.replicate(state)
base = compiles
counts = []
for epoch in range(4):
  state = sync_batch_stats(state)
  counts.append(compiles - base)
  print('epoch', epoch, 'backend compilations:', compiles - base)
assert counts[1] == counts[3], counts
