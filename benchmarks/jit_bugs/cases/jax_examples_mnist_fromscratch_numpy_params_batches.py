"""Source: https://github.com/jax-ml/jax/blob/ba557d5e1beb480851117a003ebf76c0ed2249e0/examples/mnist_classifier_fromscratch.py
Library: plain-jax
Correct: the jitted update takes params, a list of (w, b) tuples, and batch, a tuple (images, labels), both in traced positions: lists and tuples are pytree containers, and their leaves are numpy arrays (params come from numpy.random.RandomState.randn, the batches are slices of numpy arrays), which jit converts to device arrays like any array argument (float64 ones to float32, as x64 is off). After the first step params holds the float32 jax arrays update returns, with the same shapes and dtypes, so update is traced once (measured: a print in its body runs once over the eight steps).
Transcribed: the file from its imports down, with main's body at module level; datasets.mnist() (which downloads MNIST) and the `from examples import datasets` import were replaced by random numpy images and labels made with datasets.py's own _partial_flatten, the division by np.float32(255.) and _one_hot; num_epochs was cut from 10 to 2 and the training set to 512 examples.
"""
import time

import numpy as np
import numpy.random as npr

from jax import jit, grad
from jax.scipy.special import logsumexp
import jax.numpy as jnp


def _partial_flatten(x):
  """Flatten all but the first dimension of an ndarray."""
  return np.reshape(x, (x.shape[0], -1))


def _one_hot(x, k, dtype=np.float32):
  """Create a one-hot encoding of x of size k."""
  return np.array(x[:, None] == np.arange(k), dtype)


def init_random_params(scale, layer_sizes, rng=npr.RandomState(0)):
  return [(scale * rng.randn(m, n), scale * rng.randn(n))
          for m, n, in zip(layer_sizes[:-1], layer_sizes[1:])]

def predict(params, inputs):
  activations = inputs
  for w, b in params[:-1]:
    outputs = jnp.dot(activations, w) + b
    activations = jnp.tanh(outputs)

  final_w, final_b = params[-1]
  logits = jnp.dot(activations, final_w) + final_b
  return logits - logsumexp(logits, axis=1, keepdims=True)

def loss(params, batch):
  inputs, targets = batch
  preds = predict(params, inputs)
  return -jnp.mean(jnp.sum(preds * targets, axis=1))

def accuracy(params, batch):
  inputs, targets = batch
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(predict(params, inputs), axis=1)
  return jnp.mean(predicted_class == target_class)


layer_sizes = [784, 1024, 1024, 10]
param_scale = 0.1
step_size = 0.001
num_epochs = 2
batch_size = 128

data_rng = npr.RandomState(1)
train_images = _partial_flatten(data_rng.randint(0, 256, (512, 28, 28), dtype=np.uint8)) / np.float32(255.)
test_images = _partial_flatten(data_rng.randint(0, 256, (128, 28, 28), dtype=np.uint8)) / np.float32(255.)
train_labels = _one_hot(data_rng.randint(0, 10, 512), 10)
test_labels = _one_hot(data_rng.randint(0, 10, 128), 10)
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

@jit
def update(params, batch):
  grads = grad(loss)(params, batch)
  return [(w - step_size * dw, b - step_size * db)
          for (w, b), (dw, db) in zip(params, grads)]

params = init_random_params(param_scale, layer_sizes)
for epoch in range(num_epochs):
  start_time = time.time()
  for _ in range(num_batches):
    params = update(params, next(batches))
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, (train_images, train_labels))
  test_acc = accuracy(params, (test_images, test_labels))
  print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
  print(f"Training set accuracy {train_acc}")
  print(f"Test set accuracy {test_acc}")
