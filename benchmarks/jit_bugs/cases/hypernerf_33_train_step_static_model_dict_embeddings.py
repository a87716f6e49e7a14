"""Source: https://github.com/google/hypernerf/issues/33
Library: plain-jax
Reported: "ValueError: Non-hashable static arguments are not supported" when running HyperNeRF's training script: `TypeError: unhashable type: 'NerfModel'`, raised from the pmapped train step. `training.train_step` is jitted with `static_argnums=0`, its first parameter the model; train.py binds the linen `NerfModel` built by `construct_nerf` into it with `functools.partial` and pmaps the result. `NerfModel` has the field `embeddings_dict: Mapping[str, Sequence[int]]`, filled from the datasource's `embeddings_dict` (a dict of lists of ids), so the linen dataclass hash of the model fails.
Transcribed: `train_step`'s decorator and signature from hypernerf/training.py at HEAD (add8d0d..d433ebe), with its body cut to a squared-error step on the model's output; `NerfModel` reduced to the fields `embeddings_dict`, `near`, `far`, `use_viewdirs` and a one-layer `nn.Dense` body (gin.REQUIRED defaults dropped); `construct_nerf` reduced to building and initialising that model; the partial/pmap/loop of train.py's `main` kept with the datasource replaced by a dict `embeddings_dict` of id lists and random batches, one CPU device, the state replicated by stacking (in place of `jax_utils.replicate`). Observed (jax in .venv): the first `ptrain_step` call raises ValueError "Non-hashable static arguments are not supported ... Failed to hash Flax Module".
Hard: the static parameter is annotated `models.NerfModel`, a linen Module whose hash covers its fields; the unhashable part is the `Mapping` field, given a dict at construction; the model reaches the jitted function through `functools.partial` and `jax.pmap`.
"""
import functools
from typing import Any, Callable, Dict, Mapping, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


class NerfModel(nn.Module):
  embeddings_dict: Mapping[str, Sequence[int]]
  near: float
  far: float
  use_viewdirs: bool = True

  @nn.compact
  def __call__(self, x):
    return nn.Dense(3)(x)


def construct_nerf(key, batch_size, embeddings_dict, near, far):
  model = NerfModel(embeddings_dict=embeddings_dict, near=near, far=far)
  params = model.init(key, jnp.zeros((batch_size, 3)))['params']
  return model, params


@functools.partial(jax.jit,  # expect: static-unhashable
                   static_argnums=0,
                   static_argnames=('disable_hyper_grads',
                                    'use_elastic_loss',
                                    'use_background_loss'))
def train_step(model: NerfModel,
               rng_key: Callable[[int], jnp.ndarray],
               state: Dict[str, Any],
               batch: Dict[str, Any],
               scalar_params: float,
               disable_hyper_grads: bool = False,
               use_elastic_loss: bool = False,
               use_background_loss: bool = False):
  def loss_fn(params):
    out = model.apply({'params': params}, batch['origins'])
    return jnp.mean((out - batch['rgb']) ** 2)
  loss, grad = jax.value_and_grad(loss_fn)(state['params'])
  grad = jax.lax.pmean(grad, axis_name='batch')
  params = jax.tree_util.tree_map(lambda p, g: p - scalar_params * g, state['params'], grad)
  return {'params': params}, {'loss': loss}, rng_key


devices = jax.local_devices()
embeddings_dict = {'warp': [0, 1, 2], 'appearance': [0, 1, 2], 'camera': [0]}
rng = random.PRNGKey(0)
rng, key = random.split(rng)
model, params = construct_nerf(key, batch_size=8, embeddings_dict=embeddings_dict, near=0.1, far=2.0)
state = jax.tree_util.tree_map(lambda x: jnp.stack([x] * len(devices)), {'params': params})

train_step_p = functools.partial(
    train_step,
    model,
    use_elastic_loss=False,
    use_background_loss=False,
)
ptrain_step = jax.pmap(
    train_step_p,
    axis_name='batch',
    devices=devices,
    in_axes=(0, 0, 0, None),
)
keys = random.split(rng, len(devices))
for step in range(2):
  batch = {'origins': random.normal(random.PRNGKey(step), (len(devices), 8, 3)),
           'rgb': random.uniform(random.PRNGKey(step + 1), (len(devices), 8, 3))}
  state, stats, keys = ptrain_step(keys, state, batch, 1e-2)
  print(step, stats['loss'])
