"""Source: https://github.com/google/flax/commit/266052cb82ee2e687c34f5d183343c6614c71884
Library: plain-jax
Reported: "Performance improvements for ImageNet example: Don't recompile `pmap(pmean)` every time the batch statistics are synced". In examples/imagenet/train.py, `sync_batch_stats` built `avg = jax.pmap(lambda x: lax.pmean(x, 'x'), 'x')` on every call; it runs at the end of every epoch and before every checkpoint, and a new lambda is a new function to pmap, so the averaging program was traced and compiled again each time. The commit hoists it to a module-level `cross_replica_mean`. Running it here (CPU, one device), each of three syncs compiles again (backend compilations 1, 2, 3 after the calls).
Transcribed: `TrainState` and `sync_batch_stats` from examples/imagenet/train.py at the parent commit a72c42ce; `optim.Optimizer`/`optim.DynamicScale` (flax.optim, since removed from flax) are typed `Any`. The training loop is reduced to what reaches `sync_batch_stats`: a replicated state whose `model_state` holds `batch_stats`, synced once per epoch for three epochs; the count of backend compilations (a `jax.monitoring` listener) was added.
Hard: the pmapped callable is a lambda written inline in a function that the training loop calls once per epoch; nothing but the lambda's freshness is wrong.
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


def sync_batch_stats(state):
  """Sync the batch statistics across replicas."""
  # An axis_name is passed to pmap which can then be used by pmean.
  # In this case each device has its own version of the batch statistics and
  # we average them.
  avg = jax.pmap(lambda x: lax.pmean(x, 'x'), 'x')  # expect: jit-fresh-function

  new_model_state = state.model_state.copy({
      'batch_stats': avg(state.model_state['batch_stats'])})
  return state.replace(model_state=new_model_state)


model_state = flax.core.freeze(
    {'batch_stats': {'mean': jnp.zeros(4), 'var': jnp.ones(4)}})
state = TrainState(step=0, optimizer=None, model_state=model_state,
                   dynamic_scale=None)
state = jax_utils.replicate(state)
base = compiles
for epoch in range(3):
  state = sync_batch_stats(state)
  print('epoch', epoch, 'backend compilations:', compiles - base)
