"""Source: https://github.com/google-research/long-range-arena/issues/7
Library: plain-jax
Reported: training the Transformer on the listops task as the README says fails with 'ValueError: Non-hashable static arguments are not supported': create_model is jitted with static_argnums=(1, 2, 3), and its fourth argument, model_kwargs, is a dict (fixed upstream by moving the jit inside create_model, closing over model_kwargs).
Transcribed: create_model and the lines of main() that build model_kwargs and call it, from lra_benchmarks/listops/train.py at commit 211e07deebf7941e203e759585da0091137c0d25 (the version the report ran); the rest of main() (datasets, optimizer, training loop, checkpoints) is left out, and config (an ml_collections ConfigDict from a config file), vocab_size and transformer.TransformerEncoder got minimal definitions; jax.host_id became jax.process_index (renamed since).
Hard: model_kwargs is a dict built from config.model_kwargs.to_dict() or {} and then updated in place before the call.
Run: no (it uses flax.nn, the pre-linen Flax API, which current Flax no longer has, and ml_collections is not installed)
"""
import functools
import types

from flax import nn
import jax
from jax import random
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, flax_module, input_shape, model_kwargs):
  module = flax_module.partial(**model_kwargs)
  with nn.stochastic(key):
    _, initial_params = module.init_by_shape(key, [(input_shape, jnp.float32)])
    model = nn.Model(module, initial_params)
  return model


class _Config(types.SimpleNamespace):
  def __contains__(self, name):
    return name in self.__dict__


config = _Config(batch_size=32, max_length=2000, emb_dim=512, num_heads=8, num_layers=6,
                 qkv_dim=512, mlp_dim=2048, random_seed=0, model_type='transformer')
vocab_size = 14
transformer = types.SimpleNamespace(TransformerEncoder=nn.Module)


def main():
  batch_size = config.batch_size
  random_seed = config.random_seed
  model_type = config.model_type
  model_kwargs = (
      config.model_kwargs.to_dict() if 'model_kwargs' in config else {})

  max_length = config.max_length
  input_shape = (batch_size, max_length)

  model_kwargs.update({
      'vocab_size': vocab_size,
      'emb_dim': config.emb_dim,
      'num_heads': config.num_heads,
      'num_layers': config.num_layers,
      'qkv_dim': config.qkv_dim,
      'mlp_dim': config.mlp_dim,
      'max_len': config.max_length,
      'classifier': True,
      'num_classes': 10
  })

  rng = random.PRNGKey(random_seed)
  rng = jax.random.fold_in(rng, jax.process_index())
  rng, init_rng = random.split(rng)

  if model_type == 'transformer':
    model = create_model(init_rng, transformer.TransformerEncoder, input_shape,
                         model_kwargs)  # expect: static-unhashable
  else:
    raise ValueError('Model type not supported')
  return model


main()
