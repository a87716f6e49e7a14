"""Source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/docs/examples/mnist.ipynb
Library: equinox
Correct: the CNN keeps `jax.nn.relu`, `jnp.ravel`, `jax.nn.sigmoid` and `jax.nn.log_softmax` in its `layers` list next to the eqx.nn layers; `eqx.filter_jit` holds these non-array leaves static, but they are module-level functions, the same objects on every call, so `loss` and `compute_accuracy` compile once for all batches. A checker must not treat a function value in a filter_jit argument as fresh when it is a module attribute.
Transcribed: the notebook's hyperparameters, `CNN`, `loss`, `cross_entropy`, `loss = eqx.filter_jit(loss)` and `compute_accuracy`; the torchvision MNIST loaders are replaced by random batches of the same shapes and the training loop is cut (an `evaluate`-style loop over the batches remains). A trace counter in `cross_entropy` shows one compilation.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float, Int

# Hyperparameters

BATCH_SIZE = 64
LEARNING_RATE = 3e-4
STEPS = 300
PRINT_EVERY = 30
SEED = 5678

key = jax.random.PRNGKey(SEED)

traces = 0


class CNN(eqx.Module):
    layers: list

    def __init__(self, key):
        key1, key2, key3, key4 = jax.random.split(key, 4)
        # Standard CNN setup: convolutional layer, followed by flattening,
        # with a small MLP on top.
        self.layers = [
            eqx.nn.Conv2d(1, 3, kernel_size=4, key=key1),
            eqx.nn.MaxPool2d(kernel_size=2),
            jax.nn.relu,
            jnp.ravel,
            eqx.nn.Linear(1728, 512, key=key2),
            jax.nn.sigmoid,
            eqx.nn.Linear(512, 64, key=key3),
            jax.nn.relu,
            eqx.nn.Linear(64, 10, key=key4),
            jax.nn.log_softmax,
        ]

    def __call__(self, x: Float[Array, "1 28 28"]) -> Float[Array, "10"]:
        for layer in self.layers:
            x = layer(x)
        return x


key, subkey = jax.random.split(key, 2)
model = CNN(subkey)


def loss(
    model: CNN, x: Float[Array, "batch 1 28 28"], y: Int[Array, " batch"]
) -> Float[Array, ""]:
    # Our input has the shape (BATCH_SIZE, 1, 28, 28), but our model operations on
    # a single input input image of shape (1, 28, 28).
    #
    # Therefore, we have to use jax.vmap, which in this case maps our model over the
    # leading (batch) axis.
    pred_y = jax.vmap(model)(x)
    return cross_entropy(y, pred_y)


def cross_entropy(
    y: Int[Array, " batch"], pred_y: Float[Array, "batch 10"]
) -> Float[Array, ""]:
    global traces
    traces += 1
    # y are the true targets, and should be integers 0-9.
    # pred_y are the log-softmax'd predictions.
    pred_y = jnp.take_along_axis(pred_y, jnp.expand_dims(y, 1), axis=1)
    return -jnp.mean(pred_y)


loss = eqx.filter_jit(loss)  # JIT our loss function from earlier!


@eqx.filter_jit
def compute_accuracy(
    model: CNN, x: Float[Array, "batch 1 28 28"], y: Int[Array, " batch"]
) -> Float[Array, ""]:
    """This function takes as input the current model
    and computes the average accuracy on a batch.
    """
    pred_y = jax.vmap(model)(x)
    pred_y = jnp.argmax(pred_y, axis=1)
    return jnp.mean(y == pred_y)


rng = np.random.default_rng(0)
avg_loss = 0
avg_acc = 0
for _ in range(3):
    x = rng.standard_normal((BATCH_SIZE, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, (BATCH_SIZE,))
    avg_loss += loss(model, x, y)
    avg_acc += compute_accuracy(model, x, y)
print(avg_loss / 3, avg_acc / 3, "loss traced", traces, "time(s)")
assert traces == 1
