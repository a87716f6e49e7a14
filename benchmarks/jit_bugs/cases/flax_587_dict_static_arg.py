"""Source: https://github.com/google/flax/issues/587
Library: plain-jax
Reported: the WMT example passes a dict of model settings in a static position and fails with 'Non-hashable static arguments are not supported'.
Transcribed: the report quotes the decorated signature; the body is a stand-in and the call passes the dict printed in the error.
Hard: the dict reaches the static position through a variable.
"""
import functools

import jax

@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
  return jax.random.normal(key, input_shape)

model_kwargs = {'vocab_size': 32000, 'output_vocab_size': 32000, 'emb_dim': 1024, 'num_heads': 16, 'num_layers': 6, 'qkv_dim': 1024, 'mlp_dim': 4096, 'max_len': 256, 'share_embeddings': True, 'logits_via_embedding': True}
create_model(jax.random.PRNGKey(0), (1, 256), (1, 256), model_kwargs)  # expect: static-unhashable
