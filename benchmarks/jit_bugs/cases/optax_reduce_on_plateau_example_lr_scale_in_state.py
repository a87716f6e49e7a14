"""Source: https://github.com/google-deepmind/optax/blob/2edbcbe2390da13983b92cbef94ac0460ecde1c5/examples/contrib/reduce_on_plateau.ipynb
Library: plain-jax
Correct: the optax "Reduce on Plateau" example: the optimizer `optax.chain(optax.adam(...), contrib.reduce_on_plateau(...))` is built once at module level and the jitted `train_step` and `loss_accuracy` close over it and over the linen module `net`; the learning-rate scale that `reduce_on_plateau` lowers during training lives in `opt_state` (an array leaf, read back with `optax.tree.get(opt_state, "scale")`), so changing it never changes what jit compiled, and every epoch reuses the program compiled in the first. A checker that reports an optax GradientTransformation (a NamedTuple of closures) or a module captured by a jitted function as a fresh or identity-hashed static value, or a learning rate that changes between calls as stale, would flag the example.
Transcribed: the notebook's code cells for the model, `loss_accuracy`, `dataset_stats`, the hyperparameters, `opt` and the first training loop as written (the plots and the second, manual-scaling half are left out). tensorflow_datasets and grain are not used: the Fashion-MNIST loaders are replaced by fixed random batches of the same shapes (4 training and 2 test batches of 128 images of 28x28x1), `N_EPOCHS` is 3 instead of 50, and a count of backend compilations (a `jax.monitoring` listener) with an assert that the later epochs compile nothing was added. Observed: 31 backend compilations after each of the three epochs (the scale stays 1.0 in so short a run; it is a traced leaf of `opt_state` either way).
"""
from typing import Sequence
from flax import linen as nn
import jax
import jax.numpy as jnp
import numpy as np

import optax
import optax.tree
from optax import contrib

compiles = 0
def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)

# Show on which platform JAX is running.
print("JAX running on", jax.devices()[0].platform.upper())

# @markdown Number of samples in each batch:
BATCH_SIZE = 128  # @param{type:"integer"}

# Stand-in for the tfds/grain Fashion-MNIST loaders: fixed random batches.
_rng = np.random.default_rng(0)
IMG_SIZE = (28, 28, 1)
NUM_CLASSES = 10
train_loader_batched = [
    (_rng.random((BATCH_SIZE,) + IMG_SIZE, dtype=np.float32),
     _rng.integers(0, NUM_CLASSES, BATCH_SIZE))
    for _ in range(4)
]
test_loader_batched = [
    (_rng.random((BATCH_SIZE,) + IMG_SIZE, dtype=np.float32),
     _rng.integers(0, NUM_CLASSES, BATCH_SIZE))
    for _ in range(2)
]


class MLP(nn.Module):
  """A simple multilayer perceptron model for image classification."""
  hidden_sizes: Sequence[int] = (1000, 1000)

  @nn.compact
  def __call__(self, x):
    # Flattens images in the batch.
    x = x.reshape((x.shape[0], -1))
    x = nn.Dense(features=self.hidden_sizes[0])(x)
    x = nn.relu(x)
    x = nn.Dense(features=self.hidden_sizes[1])(x)
    x = nn.relu(x)
    x = nn.Dense(features=NUM_CLASSES)(x)
    return x


net = MLP()

@jax.jit
def loss_accuracy(params, data):
  """Computes loss and accuracy over a mini-batch.

  Args:
    params: parameters of the model.
    data: tuple of (inputs, labels).

  Returns:
    loss: float
  """
  inputs, labels = data
  logits = net.apply({"params": params}, inputs)
  loss = optax.softmax_cross_entropy_with_integer_labels(
      logits=logits, labels=labels
  ).mean()
  accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
  return loss, {"accuracy": accuracy}


rng = jax.random.PRNGKey(0)
fake_data = jnp.ones((1,) + IMG_SIZE, dtype=jnp.float32)
init_params = net.init({"params": rng}, fake_data)["params"]


def dataset_stats(params, data_loader):
  """Computes loss and accuracy over the dataset `data_loader`."""
  all_accuracy = []
  all_loss = []
  for batch in data_loader:
    batch_loss, batch_aux = loss_accuracy(params, batch)
    all_loss.append(batch_loss)
    all_accuracy.append(batch_aux["accuracy"])
  return {"loss": np.mean(all_loss), "accuracy": np.mean(all_accuracy)}


# @markdown Total number of epochs to train for:
N_EPOCHS = 3  # @param{type:"integer"}
# @markdown The base learning rate for the optimizer:
LEARNING_RATE = 0.01  # @param{type:"number"}

# @markdown Number of epochs with no improvement after which learning rate will be reduced:
PATIENCE = 5  # @param{type:"integer"}
# @markdown Number of epochs to wait before resuming normal operation after the learning rate reduction:
COOLDOWN = 0  # @param{type:"integer"}
# @markdown Factor by which to reduce the learning rate:
FACTOR = 0.5  # @param{type:"number"}
# @markdown Relative tolerance for measuring the new optimum:
RTOL = 1e-4  # @param{type:"number"}
# @markdown Number of iterations to accumulate an average value:
ACCUMULATION_SIZE = 200

opt = optax.chain(
    optax.adam(LEARNING_RATE),
    contrib.reduce_on_plateau(
        patience=PATIENCE,
        cooldown=COOLDOWN,
        factor=FACTOR,
        rtol=RTOL,
        accumulation_size=ACCUMULATION_SIZE,
    ),
)
opt_state = opt.init(init_params)


@jax.jit
def train_step(params, opt_state, batch):
  """Performs a one step update."""
  (value, aux), grad = jax.value_and_grad(loss_accuracy, has_aux=True)(
      params, batch
  )
  updates, opt_state = opt.update(grad, opt_state, params, value=value)
  params = optax.apply_updates(params, updates)
  return params, opt_state, value, aux


params = init_params

# Computes metrics at initialization.
train_stats = dataset_stats(params, test_loader_batched)
train_accuracy = [train_stats["accuracy"]]
train_losses = [train_stats['loss']]

test_stats = dataset_stats(params, test_loader_batched)
test_accuracy = [test_stats["accuracy"]]
test_losses = [test_stats["loss"]]

compiles_per_epoch = []
lr_scale_history = []
for epoch in range(N_EPOCHS):
  train_accuracy_epoch = []
  train_losses_epoch = []

  for _, train_batch in enumerate(train_loader_batched):
    params, opt_state, train_loss, train_aux = train_step(
        params, opt_state, train_batch
    )
    train_accuracy_epoch.append(train_aux["accuracy"])
    train_losses_epoch.append(train_loss)

  mean_train_accuracy = np.mean(train_accuracy_epoch)
  mean_train_loss = np.mean(train_losses_epoch)

  # fetch the scaling factor from the reduce_on_plateau transform
  lr_scale = optax.tree.get(opt_state, "scale")
  lr_scale_history.append(lr_scale)

  train_accuracy.append(mean_train_accuracy)
  train_losses.append(mean_train_loss)

  test_stats = dataset_stats(params, test_loader_batched)
  test_accuracy.append(test_stats["accuracy"])
  test_losses.append(test_stats["loss"])
  print(
      f"Epoch {epoch + 1}/{N_EPOCHS}, mean train accuracy:"
      f" {mean_train_accuracy}, lr scale: {optax.tree.get(opt_state, 'scale')}"
  )
  compiles_per_epoch.append(compiles)

print("backend compilations after each epoch:", compiles_per_epoch)
assert compiles_per_epoch[-1] == compiles_per_epoch[0], compiles_per_epoch
