"""Source: https://github.com/google-deepmind/optax/blob/2edbcbe2390da13983b92cbef94ac0460ecde1c5/examples/nanolm.ipynb
Library: plain-jax
Correct: optax's NanoLM example jits a method of a Flax Linen module with `functools.partial(jax.jit, static_argnames=("self", "length"))`: `self` is the `NanoLM` module, a frozen Linen dataclass that hashes and compares by its field values (ints and a float), and `length` is an int. The model is built once and never changed, so generating twice compiles once, and an equal module built again would hit the same entry. A checker that treats a static `self` of a jitted method as identity-hashed and mutable (jit-method-self, static-identity-hash) would be wrong here: Linen modules are value classes.
Transcribed: the NanoLM class cell, the model construction and init cells and the generation cell of examples/nanolm.ipynb at commit 2edbcbe2390da13983b92cbef94ac0460ecde1c5; the hyperparameters are shrunk (2 layers, 2 heads, head size 8, embedding 16, block size 16, vocabulary 20) so it runs quickly on CPU, the tiny_shakespeare download, the vocabulary/decoding and the training loop are left out (generation runs on the initial parameters), `length` is 50; a trace counter, a second generation call and checks were added.
"""
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp

TRACES = [0]

SEED = 42
BATCH_SIZE = 4
DROPOUT_RATE = 0.2
BLOCK_SIZE = 16
NUM_LAYERS = 2
EMBED_SIZE = 16
NUM_HEADS = 2
HEAD_SIZE = 8
VOCAB_SIZE = 20


class NanoLM(nn.Module):
  """NanoLM model."""
  vocab_size: int
  num_layers: int = 6
  num_heads: int = 8
  head_size: int = 32
  dropout_rate: float = 0.2
  embed_size: int = 256
  block_size: int = 64

  @nn.compact
  def __call__(self, x, training: bool):
    seq_len = x.shape[1]

    x = nn.Embed(self.vocab_size, self.embed_size)(x) + nn.Embed(
        self.block_size, self.embed_size
    )(jnp.arange(seq_len))
    for _ in range(self.num_layers):
      x_norm = nn.LayerNorm()(x)
      x = x + nn.MultiHeadDotProductAttention(
          num_heads=self.num_heads,
          qkv_features=self.head_size,
          out_features=self.head_size * self.num_heads,
          dropout_rate=self.dropout_rate,
      )(
          x_norm,
          x_norm,
          mask=jnp.tril(jnp.ones((x.shape[-2], x.shape[-2]))),
          deterministic=not training,
      )

      x = x + nn.Sequential([
          nn.Dense(4 * self.embed_size),
          nn.relu,
          nn.Dropout(self.dropout_rate, deterministic=not training),
          nn.Dense(self.embed_size),
      ])(nn.LayerNorm()(x))

    x = nn.LayerNorm()(x)
    return nn.Dense(self.vocab_size)(x)

  @functools.partial(jax.jit, static_argnames=("self", "length"))
  def generate(self, rng, params, length):
    TRACES[0] += 1
    def _scan_generate(carry, _):
      random_key, context = carry
      logits = self.apply(params, context, training=False)
      rng, rng_subkey = jax.random.split(random_key)
      new_token = jax.random.categorical(
          rng_subkey, logits[:, -1, :], axis=-1, shape=(1, 1)
      )
      context = jnp.concatenate([context[:, 1:], new_token], axis=1)
      return (rng, context), new_token

    _, new_tokens = jax.lax.scan(
        _scan_generate,
        (rng, jnp.zeros((1, self.block_size), dtype=jnp.int32)),
        (),
        length=length,
    )
    return new_tokens


model = NanoLM(
    vocab_size=VOCAB_SIZE,
    num_layers=NUM_LAYERS,
    num_heads=NUM_HEADS,
    head_size=HEAD_SIZE,
    dropout_rate=DROPOUT_RATE,
    embed_size=EMBED_SIZE,
    block_size=BLOCK_SIZE,
)

key = jax.random.PRNGKey(SEED)
key, subkey = jax.random.split(key)

var_params = model.init(
    key,
    jnp.ones((BATCH_SIZE, BLOCK_SIZE), dtype=jnp.int32),
    training=False,
)

# Let's now generate some text
key, subkey = jax.random.split(key)
text = model.generate(key, var_params, 50)[:, 0, 0].tolist()
key, subkey = jax.random.split(key)
text2 = model.generate(key, var_params, 50)[:, 0, 0].tolist()
assert len(text) == len(text2) == 50
assert TRACES[0] == 1, TRACES
print("OK: static self (a Linen module, hashed by value) and static length; one compilation")
