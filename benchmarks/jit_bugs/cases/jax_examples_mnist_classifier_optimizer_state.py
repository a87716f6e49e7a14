"""Source: https://github.com/jax-ml/jax/blob/78fd4f1664fd11e04828409c5e7e864310ef8523/examples/mnist_classifier.py
Library: plain-jax
Correct: the jitted update takes the step count i (a Python int from itertools.count), opt_state and batch, all traced. opt_state is jax.example_libraries.optimizers' OptimizerState, which that module registers as a pytree (its packed state arrays are the leaves, the tree structure is aux data); the params inside come from stax.serial, a list holding (W, b) tuples for the Dense layers and empty tuples () for Relu and LogSoftmax, which are pytree containers without leaves; the batch is a tuple of numpy arrays; the int becomes a weak-typed int32 scalar, so each new i reuses the compiled update.
Transcribed: the file with main's body at module level; datasets.mnist() (which downloads MNIST) and the `from examples import datasets` import were replaced by random numpy images and one-hot labels of the same dtypes, num_epochs was cut from 10 to 2 and the training set to 512 examples.
"""
import time
import itertools

import numpy as np
import numpy.random as npr

import jax.numpy as jnp
from jax import jit, grad, random
from jax.example_libraries import optimizers
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu, LogSoftmax


def loss(params, batch):
  inputs, targets = batch
  preds = predict(params, inputs)
  return -jnp.mean(jnp.sum(preds * targets, axis=1))

def accuracy(params, batch):
  inputs, targets = batch
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(predict(params, inputs), axis=1)
  return jnp.mean(predicted_class == target_class)

init_random_params, predict = stax.serial(
    Dense(1024), Relu,
    Dense(1024), Relu,
    Dense(10), LogSoftmax)

rng = random.key(0)

step_size = 0.001
num_epochs = 2
batch_size = 128
momentum_mass = 0.9

data_rng = npr.RandomState(1)
train_images = data_rng.randint(0, 256, (512, 784)).astype(np.float32) / np.float32(255.)
test_images = data_rng.randint(0, 256, (128, 784)).astype(np.float32) / np.float32(255.)
train_labels = np.array(data_rng.randint(0, 10, 512)[:, None] == np.arange(10), np.float32)
test_labels = np.array(data_rng.randint(0, 10, 128)[:, None] == np.arange(10), np.float32)
num_train = train_images.shape[0]
num_complete_batches, leftover = divmod(num_train, batch_size)
num_batches = num_complete_batches + bool(leftover)

def data_stream():
  rng = npr.RandomState(0)
  while True:
    perm = rng.permutation(num_train)
    for i in range(num_batches):
      batch_idx = perm[i * batch_size:(i + 1) * batch_size]
      yield train_images[batch_idx], train_labels[batch_idx]
batches = data_stream()

opt_init, opt_update, get_params = optimizers.momentum(step_size, mass=momentum_mass)

@jit
def update(i, opt_state, batch):
  params = get_params(opt_state)
  return opt_update(i, grad(loss)(params, batch), opt_state)

_, init_params = init_random_params(rng, (-1, 28 * 28))
opt_state = opt_init(init_params)
itercount = itertools.count()

print("\nStarting training...")
for epoch in range(num_epochs):
  start_time = time.time()
  for _ in range(num_batches):
    opt_state = update(next(itercount), opt_state, next(batches))
  epoch_time = time.time() - start_time

  params = get_params(opt_state)
  train_acc = accuracy(params, (train_images, train_labels))
  test_acc = accuracy(params, (test_images, test_labels))
  print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
  print(f"Training set accuracy {train_acc}")
  print(f"Test set accuracy {test_acc}")
