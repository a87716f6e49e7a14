"""Source: https://github.com/jax-ml/jax/issues/11303
Library: flax
Correct: train_step marks the flax model and the optax optimizer static (static_argnames=['model', 'optimizer']).
Both are built once, before the training loop, and the same objects are passed on every step: a linen Module
is a hashable frozen dataclass and the GradientTransformation is a NamedTuple of the same two closures, so the
cache key is stable and train_step compiles once. (The issue itself is about device memory, not about jit
caching.)
Transcribed: train_step copied as reported. Added imports, a small linen Model with a `train` flag, a minimal
format_params (merge trainable and fixed parameter dicts), USE_DROPOUT, and a short loop in place of the
reported train_loop; the optimizer is optax.sgd, built once, as in the mu2Net code. donate_argnums is kept; on
CPU jax only warns that donation is not used.
"""
import warnings
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

warnings.filterwarnings("ignore", message=".*donated.*")

USE_DROPOUT = False
TRACES = 0


class Model(nn.Module):
    num_classes: int = 10

    @nn.compact
    def __call__(self, x, train=False):
        x = nn.Dense(32, name="body")(x)
        x = nn.relu(x)
        return nn.Dense(self.num_classes, name="head")(x)


def format_params(params, fixed_params):
    return {**fixed_params, **params}


@partial(jax.jit, static_argnames=['model', 'optimizer'], donate_argnums=[0, 2])
def train_step(params, fixed_params, opt_state, images, labels, model, optimizer):
  global TRACES
  TRACES += 1
  def loss_fn(params, fixed_params, images, labels):
    logits = model.apply({'params': format_params(params, fixed_params)},
                         images, train=USE_DROPOUT)
    labels = jax.nn.one_hot(labels, logits.shape[-1])
    return -jnp.mean(jnp.sum(labels * nn.log_softmax(logits), axis=-1))
  grads = jax.grad(loss_fn)(params, fixed_params, images, labels)
  updates, opt_state = optimizer.update(grads, opt_state, params=params)
  params = optax.apply_updates(params, updates)
  return params, opt_state


if __name__ == "__main__":
    model = Model()
    images = jnp.ones((8, 16))
    labels = jnp.arange(8) % 10
    all_params = model.init(jax.random.PRNGKey(0), images)["params"]
    params = {"head": all_params["head"]}
    fixed_params = {"body": all_params["body"]}
    optimizer = optax.sgd(learning_rate=0.01, momentum=0.9)
    opt_state = optimizer.init(params)
    for step in range(5):
        params, opt_state = train_step(params, fixed_params, opt_state,
                                       images, labels, model=model, optimizer=optimizer)
    print("traces:", TRACES)
    assert TRACES == 1, TRACES
    print("OK: model and optimizer built once and held static compile once")
