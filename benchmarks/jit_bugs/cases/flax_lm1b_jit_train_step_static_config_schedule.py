"""Source: https://github.com/google/flax/blob/aa8977906a88399c87cfb428b306c87fe53df487/examples/lm1b/train.py
Library: plain-jax
Correct: Flax's LM1B language-model example jits `train_step` and `eval_step` once, before the training loop, with `static_argnums` covering the model config, the learning-rate schedule and the label smoothing. The config is a `flax.struct.dataclass` (frozen, hashed by value) whose callable fields (`kernel_init`, `bias_init`) are initializers made once when the config is built; the schedule is a closure `optax.join_schedules` makes once; the loop passes those same objects at every step, and `eval_config`, made by `train_config.replace(...)`, is an equal-by-value config that is built once too. Every static argument is the same value at every call, so each step function compiles once. A checker that reports closures or pytree dataclasses in static positions without asking where and how often they are made would flag it.
Transcribed: `rsqrt_schedule`, `create_learning_rate_schedule`, `compute_weighted_cross_entropy`, `compute_weighted_accuracy`, `compute_metrics`, `train_step`, `eval_step` and the model/optimizer set-up, the `jax.jit` calls and the training loop of `train_and_evaluate` from examples/lm1b/train.py, and `TransformerConfig` from examples/lm1b/models.py, at the commit named. Left out: the input pipeline, checkpoints, metric writers, hooks, profiling, decoding (`predict_step`) and the mesh: the `in_shardings`/`out_shardings` arguments of `jax.jit` are dropped (one CPU device) and `utils.setup_initial_state` is cut to the `jax.jit` of `functools.partial(init_train_state, ...)` it makes (`init_train_state` from examples/lm1b/utils.py, with a `SimpleNamespace` standing in for the ml_collections config it reads). `models.TransformerLM` is a stand-in (an embedding and a dense layer reading the config's sizes, initializers and dropout), the batches are random tokens, the sizes are small, and the eval loop is one call; compile counts were added.
"""
import functools
import types
from typing import Any
from collections.abc import Callable

from flax import linen as nn
from flax import struct
from flax.training import common_utils
from flax.training import train_state
import jax
from jax import random
import jax.numpy as jnp
import numpy as np
import optax


@struct.dataclass
class TransformerConfig:
  """Global hyperparameters used to minimize obnoxious kwarg plumbing."""

  vocab_size: int
  output_vocab_size: int
  share_embeddings: bool = False
  logits_via_embedding: bool = False
  dtype: Any = jnp.float32
  emb_dim: int = 512
  num_heads: int = 8
  num_layers: int = 6
  qkv_dim: int = 512
  mlp_dim: int = 2048
  max_len: int = 2048
  dropout_rate: float = 0.1
  attention_dropout_rate: float = 0.1
  deterministic: bool = False
  decode: bool = False
  kernel_init: Callable = nn.initializers.xavier_uniform()
  bias_init: Callable = nn.initializers.normal(stddev=1e-6)
  posemb_init: Callable | None = None


class TransformerLM(nn.Module):  # stand-in for models.TransformerLM
  config: TransformerConfig

  @nn.compact
  def __call__(self, inputs, inputs_positions=None, inputs_segmentation=None):
    config = self.config
    x = nn.Embed(config.vocab_size, config.emb_dim)(inputs.astype("int32"))
    x = nn.Dropout(rate=config.dropout_rate)(x, deterministic=config.deterministic)
    return nn.Dense(config.output_vocab_size, kernel_init=config.kernel_init, bias_init=config.bias_init)(x)


def rsqrt_schedule(
    init_value: float,
    shift: int = 0,
):
  """Applies a reverse square-root schedule."""

  def schedule(count):
    return init_value * (count + shift) ** -0.5 * shift**0.5

  return schedule


def create_learning_rate_schedule(learning_rate: float, warmup_steps: int):
  """Creates a rsqrt schedule with linear warmup."""
  return optax.join_schedules(
      [
          optax.linear_schedule(
              init_value=0,
              end_value=learning_rate,
              transition_steps=warmup_steps,
          ),
          rsqrt_schedule(init_value=learning_rate, shift=warmup_steps),
      ],
      boundaries=[warmup_steps],
  )


def compute_weighted_cross_entropy(
    logits, targets, weights=None, label_smoothing=0.0
):
  """Compute weighted cross entropy and entropy for log probs and targets."""
  if logits.ndim != targets.ndim + 1:
    raise ValueError(
        "Incorrect shapes. Got shape %s logits and %s targets"
        % (str(logits.shape), str(targets.shape))
    )
  vocab_size = logits.shape[-1]
  confidence = 1.0 - label_smoothing
  low_confidence = (1.0 - confidence) / (vocab_size - 1)
  normalizing_constant = -(
      confidence * jnp.log(confidence)
      + (vocab_size - 1) * low_confidence * jnp.log(low_confidence + 1e-20)
  )
  soft_targets = common_utils.onehot(
      targets, vocab_size, on_value=confidence, off_value=low_confidence
  )

  loss = -jnp.sum(soft_targets * nn.log_softmax(logits), axis=-1)
  loss = loss - normalizing_constant

  normalizing_factor = np.prod(targets.shape)
  if weights is not None:
    loss = loss * weights
    normalizing_factor = weights.sum()

  return loss.sum(), normalizing_factor


def compute_weighted_accuracy(logits, targets, weights=None):
  """Compute weighted accuracy for log probs and targets."""
  if logits.ndim != targets.ndim + 1:
    raise ValueError(
        "Incorrect shapes. Got shape %s logits and %s targets"
        % (str(logits.shape), str(targets.shape))
    )
  loss = jnp.equal(jnp.argmax(logits, axis=-1), targets)
  normalizing_factor = np.prod(logits.shape[:-1])
  if weights is not None:
    loss = loss * weights
    normalizing_factor = weights.sum()

  return loss.sum(), normalizing_factor


def compute_metrics(logits, labels, weights, label_smoothing=0.0):
  """Compute summary metrics."""
  loss, weight_sum = compute_weighted_cross_entropy(
      logits, labels, weights, label_smoothing
  )
  acc, _ = compute_weighted_accuracy(logits, labels, weights)
  metrics = {
      "loss": loss,
      "accuracy": acc,
      "denominator": weight_sum,
  }
  return metrics


def train_step(
    state,
    batch,
    config,
    learning_rate_fn,
    label_smoothing=0.0,
    dropout_rng=None,
):
  """Perform a single training step."""
  train_keys = ["inputs", "inputs_position", "inputs_segmentation"]
  (inputs, inputs_positions, inputs_segmentation) = (
      batch.get(k, None) for k in train_keys
  )

  weights = jnp.where(inputs > 0, 1, 0).astype(jnp.float32)

  dropout_rng = jax.random.fold_in(dropout_rng, state.step)

  def loss_fn(params):
    """loss function used for training."""
    logits = TransformerLM(config).apply(
        {"params": params},
        inputs,
        inputs_positions=inputs_positions,
        inputs_segmentation=inputs_segmentation,
        rngs={"dropout": dropout_rng},
    )

    loss, weight_sum = compute_weighted_cross_entropy(
        logits, inputs, weights, label_smoothing
    )
    mean_loss = loss / weight_sum
    return mean_loss, logits

  step = state.step
  lr = learning_rate_fn(step)
  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (_, logits), grads = grad_fn(state.params)
  new_state = state.apply_gradients(grads=grads)
  metrics = compute_metrics(logits, inputs, weights)
  metrics["learning_rate"] = lr

  return new_state, metrics


def init_train_state(model, tx, config, key):
  """
  We pass in "static" objects like model, tx, config as JAX compares them by
  object hash, and instantiating them inside causes pjit top-level annotations
  to fail to match as pytree prefixes if we re-instantiate.

  Args: model, tx, config, key
  """
  input_shape = (config.per_device_batch_size, config.max_target_length)
  initial_variables = jax.jit(model.init)(
      key, jnp.ones(input_shape, jnp.float32)
  )

  state = train_state.TrainState.create(
      apply_fn=model.apply, params=initial_variables["params"], tx=tx
  )
  return state


def eval_step(params, batch, config, label_smoothing=0.0):
  """Calculate evaluation metrics on a batch."""
  inputs = batch["inputs"]
  weights = jnp.where(inputs > 0, 1.0, 0.0)
  logits = TransformerLM(config).apply({"params": params}, inputs)

  return compute_metrics(logits, inputs, weights, label_smoothing)


config = types.SimpleNamespace(per_device_batch_size=4, max_target_length=32)  # stand-in for the ml_collections config
vocab_size = 64
train_config = TransformerConfig(
    vocab_size=vocab_size,
    output_vocab_size=vocab_size,
    logits_via_embedding=False,
    dtype=jnp.float32,
    emb_dim=16,
    num_heads=2,
    num_layers=1,
    qkv_dim=16,
    mlp_dim=32,
    max_len=32,
    dropout_rate=0.1,
    attention_dropout_rate=0.1,
    deterministic=False,
    decode=False,
    kernel_init=nn.initializers.xavier_uniform(),
    bias_init=nn.initializers.normal(stddev=1e-6),
)
eval_config = train_config.replace(deterministic=True)

start_step = 0
rng = jax.random.PRNGKey(0)
rng, init_rng = jax.random.split(rng)
rng, inference_rng = random.split(rng)

m = TransformerLM(eval_config)

learning_rate_fn = create_learning_rate_schedule(
    learning_rate=0.0625, warmup_steps=4
)

optimizer = optax.adamw(
    learning_rate_fn,
    b1=0.9,
    b2=0.98,
    eps=1e-9,
    weight_decay=0.1,
)

state = jax.jit(functools.partial(init_train_state, m, optimizer, config))(init_rng)

# compile multidevice versions of train/eval/predict step fn.
jit_train_step = jax.jit(
    train_step,
    static_argnums=(2, 3, 4),
    donate_argnums=0,
)

jit_eval_step = jax.jit(
    eval_step,
    static_argnums=(2, 3),
)

dropout_rngs = rng
train_metrics = []
for step in range(start_step, 6):
  rng, batch_rng = random.split(rng)
  batch = {"inputs": random.randint(batch_rng, (4, 32), 0, vocab_size)}
  state, metrics = jit_train_step(
      state, batch, train_config, learning_rate_fn, 0.0, dropout_rngs
  )
  train_metrics.append(metrics)

eval_metrics = jit_eval_step(state.params, batch, eval_config, 0.0)
print("loss:", float(train_metrics[-1]["loss"] / train_metrics[-1]["denominator"]))
print("eval loss:", float(eval_metrics["loss"] / eval_metrics["denominator"]))
print("compiles:", jit_train_step._cache_size(), jit_eval_step._cache_size())
