"""Source: https://github.com/google/flax/issues/1495
Library: flax
Correct: instead of passing a module or function in a static position, the maintainer extends TrainState with a Callable field marked struct.field(pytree_node=False) holding a module's apply; a bound apply of a flax module hashes and compares by the module's settings, so the jitted step compiles once.
Transcribed: the maintainer's TrainState subclass from the thread; the stored copy is cut off inside 'TrainState.create(apply_fn=model.ap', so the call is completed with the two modules' apply methods, and the modules, parameters, optimizer and a jitted step were added to run it.
"""
from typing import Callable

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import struct
from flax.training import train_state


class TrainState(train_state.TrainState):
  embed_apply_fn: Callable = struct.field(pytree_node=False)


embed = nn.Embed(num_embeddings=10, features=4)
model = nn.Dense(1)
key = jax.random.PRNGKey(0)
params = {
    'embed': embed.init(key, jnp.zeros((2,), jnp.int32)),
    'model': model.init(key, jnp.zeros((2, 4))),
}

state = TrainState.create(
    apply_fn=model.apply, embed_apply_fn=embed.apply, params=params, tx=optax.sgd(0.1))


@jax.jit
def train_step(state, tokens):
  def loss_fn(params):
    h = state.embed_apply_fn(params['embed'], tokens)
    return jnp.sum(state.apply_fn(params['model'], h))
  grads = jax.grad(loss_fn)(state.params)
  return state.apply_gradients(grads=grads)


state = train_step(state, jnp.array([1, 2]))
state = train_step(state, jnp.array([3, 4]))
