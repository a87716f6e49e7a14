"""Source: https://github.com/google-deepmind/dm-haiku/issues/196
Library: plain-jax
Reported: "Difficulties with implementing evolutionary search algorithm in Haiku": training an evolutionary search built on the `Updater` of Haiku's transformer example was extremely slow. The maintainer's diagnosis: "you are creating `POPULATION_SIZE` different `Updater` instances. Each of these has an `init` and `update` function which will get `jit` compiled by JAX ... if your population is sufficiently large this will quickly be minutes or hours of compilation", and the reporter confirmed "That's almost definitely it". `Updater.init` and `Updater.update` are jitted with `static_argnums=0`, so `self` is static; `Updater` keeps `object.__hash__`, so every member of the population is a new static value and compiles both functions again, although all members are built from the same functions and optimizer.
Transcribed: `Updater` from examples/transformer/train.py at 3bee43a8 (the version the report used), unchanged, and the set-up of that file's `main` (`loss_fn = functools.partial(lm_loss_fn, forward_fn.apply, vocab_size)`, the optax chain, `Updater(forward_fn.init, loss_fn, optimizer)`, `init` then `update`). The reporter's script is not in the stored thread, so the population (a list comprehension of `POPULATION_SIZE` updaters, each initialised and updated once) is written as the maintainer describes it. Haiku is not installed: `hk.transform` of the transformer is replaced by a stand-in `Transformed(init, apply)` pair for a bag-of-embeddings model, `lm_loss_fn` is kept, the dataset is random tokens, the sizes are small, and a trace counter was added.
Hard: `self` is static through `static_argnums=0` on two methods of a plain class that keeps `object.__hash__` and is never changed; the evidence is the list comprehension that builds many equal instances, each of which meets the jitted methods.
"""
import functools
from typing import Any, Mapping, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

traces = 0
POPULATION_SIZE = 4


class Transformed(NamedTuple):  # stand-in for hk.Transformed
  init: Any
  apply: Any


def transform_bag_of_embeddings(vocab_size: int, d_model: int):  # stand-in for hk.transform(forward_fn)
  def init(rng, data):
    k1, k2 = jax.random.split(rng)
    return {
        'embed': 0.02 * jax.random.normal(k1, (vocab_size, d_model)),
        'linear': 0.02 * jax.random.normal(k2, (d_model, vocab_size)),
    }

  def apply(params, rng, data, is_training=True):
    return params['embed'][data['obs']] @ params['linear']

  return Transformed(init, apply)


def lm_loss_fn(forward_fn,
               vocab_size: int,
               params,
               rng,
               data: Mapping[str, jnp.ndarray],
               is_training: bool = True) -> jnp.ndarray:
  """Compute the loss on data wrt params."""
  logits = forward_fn(params, rng, data, is_training)
  targets = jax.nn.one_hot(data['target'], vocab_size)
  assert logits.shape == targets.shape

  mask = jnp.greater(data['obs'], 0)
  loss = -jnp.sum(targets * jax.nn.log_softmax(logits), axis=-1)
  loss = jnp.sum(loss * mask) / jnp.sum(mask)

  return loss


class Updater:
  """A stateless abstraction around an init_fn/update_fn pair.

  This extracts some common boilerplate from the training loop.
  """

  def __init__(self, net_init, loss_fn,
               optimizer: optax.GradientTransformation):
    self._net_init = net_init
    self._loss_fn = loss_fn
    self._opt = optimizer

  @functools.partial(jax.jit, static_argnums=0)  # expect: static-identity-hash
  def init(self, rng, data):
    """Initializes state of the updater."""
    global traces
    traces += 1
    out_rng, init_rng = jax.random.split(rng)
    params = self._net_init(init_rng, data)
    opt_state = self._opt.init(params)
    out = dict(
        step=np.array(0),
        rng=out_rng,
        opt_state=opt_state,
        params=params,
    )
    return out

  @functools.partial(jax.jit, static_argnums=0)  # expect: static-identity-hash
  def update(self, state: Mapping[str, Any], data: Mapping[str, jnp.ndarray]):
    """Updates the state using some data and returns metrics."""
    global traces
    traces += 1
    rng, new_rng = jax.random.split(state['rng'])
    params = state['params']
    loss, g = jax.value_and_grad(self._loss_fn)(params, rng, data)

    updates, opt_state = self._opt.update(g, state['opt_state'])
    params = optax.apply_updates(params, updates)

    new_state = {
        'step': state['step'] + 1,
        'rng': new_rng,
        'opt_state': opt_state,
        'params': params,
    }

    metrics = {
        'step': state['step'],
        'loss': loss,
    }
    return new_state, metrics


vocab_size = 32
tokens = jax.random.randint(jax.random.PRNGKey(0), (8, 17), 1, vocab_size)
data = {'obs': tokens[:, :-1], 'target': tokens[:, 1:]}

forward_fn = transform_bag_of_embeddings(vocab_size, 16)
loss_fn = functools.partial(lm_loss_fn, forward_fn.apply, vocab_size)

optimizer = optax.chain(
    optax.clip_by_global_norm(0.25),
    optax.adam(2e-4, b1=0.9, b2=0.99))

population = [Updater(forward_fn.init, loss_fn, optimizer) for _ in range(POPULATION_SIZE)]
rng = jax.random.PRNGKey(428)
for member in population:
  rng, init_rng = jax.random.split(rng)
  state = member.init(init_rng, data)
  state, metrics = member.update(state, data)
print("traces:", traces)  # 8: init and update compiled again for every member of the population
