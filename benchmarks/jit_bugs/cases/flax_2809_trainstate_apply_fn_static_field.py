"""Source: https://github.com/google/flax/pull/2809
Library: flax
Correct: The PR description shows the usage flax recommends: a TrainState (a flax.struct dataclass whose apply_fn and
tx fields are declared struct.field(pytree_node=False)) is created once with apply_fn=model.apply, and is passed
to a plain @jax.jit train_step in a traced position. apply_fn is set once and never replaced (apply_gradients
keeps it), and a bound method of a hashable linen Module compares and hashes equal across accesses, so the
treedef stays the same and train_step compiles once. The older alternative the PR also shows, passing the
method in a static position (static_argnums=(2,)), is correct too when the method is the class's function,
built once.
Transcribed: Both train_step snippets from the PR, with the `...` filled in by a minimal loss and
state.apply_gradients; added a linen Model with a `some_method`, TrainState.create with optax.sgd, trace
counters and a loop.
"""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

TRACES = {"string": 0, "static": 0}


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4, name="dense")(x)

    def some_method(self, x):
        return self(x) * 2.0


@jax.jit
def train_step(state, batch):
  TRACES["string"] += 1
  def loss_fn(params):
    logits = state.apply_fn({'params': params}, batch, method='some_method')
    return jnp.mean(logits ** 2)
  grads = jax.grad(loss_fn)(state.params)
  return state.apply_gradients(grads=grads)


@partial(jax.jit, static_argnums=(2,))
def train_step_method(state, batch, method):
  TRACES["static"] += 1
  def loss_fn(params):
    logits = state.apply_fn({'params': params}, batch, method=method)
    return jnp.mean(logits ** 2)
  grads = jax.grad(loss_fn)(state.params)
  return state.apply_gradients(grads=grads)


if __name__ == "__main__":
    model = Model()
    batch = jnp.ones((2, 3))
    params = model.init(jax.random.PRNGKey(0), batch)["params"]
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
    for _ in range(5):
        state = train_step(state, batch)
        state = train_step_method(state, batch, Model.some_method)
    print("step:", int(state.step), "traces:", TRACES)
    assert TRACES == {"string": 1, "static": 1}, TRACES
    print("OK: TrainState with apply_fn in a pytree_node=False field, set once, compiles once")
