"""Source: https://github.com/google/flax/blob/59e037f0ed2a8ddd12bced4efea5b21bc1d1fe27/docs/guides/training_techniques/lr_schedule.rst
Library: plain-jax
Correct: Flax's "Learning rate scheduling" guide passes the schedule returned by `create_learning_rate_fn` (an `optax.join_schedules` closure over a linear warmup and a cosine decay) to `train_step` as a static argument (`functools.partial(jax.jit, static_argnums=2)`), and the same schedule to `optax.sgd` inside the TrainState's `tx` static field. The schedule is made once, before training, and the same object is passed at every step, so `train_step` compiles once. A checker that reports a closure returned by a function (a "fresh callable") in a static position would be wrong unless the closure is made again and again.
Transcribed: the guide's testsetup (CNN, get_dummy_data, compute_metrics, get_config), `create_learning_rate_fn` and the schedule versions of `train_step`, `train_epoch` and `create_train_state`, and its testcleanup (lr_schedule.rst at commit 59e037f0ed2a8ddd12bced4efea5b21bc1d1fe27); `ml_collections.ConfigDict` (not installed) became a `types.SimpleNamespace` with the same values, the unused tensorflow_datasets import was dropped, the testcleanup's single `train_epoch` call became three epochs, and a trace counter with a check was added.
"""
import functools
import types

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from absl import logging
from flax.training import train_state

TRACES = [0]


class CNN(nn.Module):
  """A simple CNN model."""

  @nn.compact
  def __call__(self, x):
    x = nn.Conv(features=32, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = nn.Conv(features=64, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = x.reshape((x.shape[0], -1))  # flatten
    x = nn.Dense(features=256)(x)
    x = nn.relu(x)
    x = nn.Dense(features=10)(x)
    return x

def get_dummy_data(ds_size):
  image = np.random.rand(ds_size, 28, 28, 1)
  label = np.random.randint(low=0, high=10, size=(ds_size,))
  return {'image': image, 'label': label}

def get_config():
  """Get the default hyperparameter configuration."""
  config = types.SimpleNamespace()

  config.learning_rate = 0.001
  config.momentum = 0.9
  config.batch_size = 128
  config.num_epochs = 10
  config.warmup_epochs = 2
  config.train_ds_size = 128
  return config

def compute_metrics(logits, labels):
  one_hot = jax.nn.one_hot(labels, 10)
  loss = jnp.mean(optax.softmax_cross_entropy(logits, one_hot))
  accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
  metrics = {
      'loss': loss,
      'accuracy': accuracy,
  }
  return metrics


def create_learning_rate_fn(config, base_learning_rate, steps_per_epoch):
  """Creates learning rate schedule."""
  warmup_fn = optax.linear_schedule(
      init_value=0., end_value=base_learning_rate,
      transition_steps=config.warmup_epochs * steps_per_epoch)
  cosine_epochs = max(config.num_epochs - config.warmup_epochs, 1)
  cosine_fn = optax.cosine_decay_schedule(
      init_value=base_learning_rate,
      decay_steps=cosine_epochs * steps_per_epoch)
  schedule_fn = optax.join_schedules(
      schedules=[warmup_fn, cosine_fn],
      boundaries=[config.warmup_epochs * steps_per_epoch])
  return schedule_fn


@functools.partial(jax.jit, static_argnums=2)
def train_step(state, batch, learning_rate_fn):
  TRACES[0] += 1
  def loss_fn(params):
    logits = CNN().apply({'params': params}, batch['image'])
    one_hot = jax.nn.one_hot(batch['label'], 10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits, one_hot))
    return loss, logits
  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (_, logits), grads = grad_fn(state.params)
  new_state = state.apply_gradients(grads=grads)
  metrics = compute_metrics(logits, batch['label'])
  lr = learning_rate_fn(state.step)
  metrics['learning_rate'] = lr
  return new_state, metrics


def train_epoch(state, train_ds, batch_size, epoch, learning_rate_fn, rng):
  """Trains for a single epoch."""
  train_ds_size = len(train_ds['image'])
  steps_per_epoch = train_ds_size // batch_size
  perms = jax.random.permutation(rng, len(train_ds['image']))
  perms = perms[:steps_per_epoch * batch_size]
  perms = perms.reshape((steps_per_epoch, batch_size))
  batch_metrics = []
  for perm in perms:
    batch = {k: v[perm, ...] for k, v in train_ds.items()}
    state, metrics = train_step(state, batch, learning_rate_fn)
    batch_metrics.append(metrics)

  # compute mean of metrics across each batch in epoch.
  batch_metrics = jax.device_get(batch_metrics)
  epoch_metrics = {
      k: np.mean([metrics[k] for metrics in batch_metrics])
      for k in batch_metrics[0]}

  logging.info('train epoch: %d, loss: %.4f, accuracy: %.2f', epoch,
               epoch_metrics['loss'], epoch_metrics['accuracy'] * 100)

  return state, epoch_metrics


def create_train_state(rng, config, learning_rate_fn):
  """Creates initial `TrainState`."""
  cnn = CNN()
  params = cnn.init(rng, jnp.ones([1, 28, 28, 1]))['params']
  tx = optax.sgd(learning_rate_fn, config.momentum)
  return train_state.TrainState.create(
      apply_fn=cnn.apply, params=params, tx=tx)


config = get_config()

train_ds_size = config.train_ds_size
steps_per_epoch = train_ds_size // config.batch_size
learning_rate_fn = create_learning_rate_fn(config, config.learning_rate, steps_per_epoch)

rng = jax.random.key(0)
state = create_train_state(rng, config, learning_rate_fn)

train_ds = get_dummy_data(config.train_ds_size)
for epoch in range(3):
  rng, _ = jax.random.split(rng)
  state, epoch_metrics = train_epoch(state, train_ds, config.batch_size, epoch, learning_rate_fn, rng)

assert 'accuracy' in epoch_metrics and 'learning_rate' in epoch_metrics
assert TRACES[0] == 1, TRACES
print("OK: the schedule made once is one static value; train_step traced once over", 3 * steps_per_epoch, "steps")
