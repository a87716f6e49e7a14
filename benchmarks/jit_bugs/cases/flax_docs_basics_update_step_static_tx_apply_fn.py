"""Source: https://github.com/google/flax/blob/3e789b71dd67ebf054b20b50fcadb52a5548d9ac/docs/guides/flax_fundamentals/flax_basics.md
Library: plain-jax
Correct: the Flax basics guide jits `update_step(tx, apply_fn, x, opt_state, params, state)` with `static_argnums=(0, 1)`: `tx` is an optax GradientTransformation (a NamedTuple of closures, hashed by the identity of its functions) and `apply_fn` is `model.apply`, a bound method of a Linen module (hashed by the module's field values). Both are built once, before the loop, and never changed, so they never cause a retrace: of the three calls in the loop, the first traces, the second traces again only because the running mean's shape changes from (5,) to (1, 5) after the first step (`keepdims=True` in the module), and the third hits the cache. A checker that reports every optax optimizer or bound method in a static position (as optax issue 353 and `jax.jit(obj.method)` hazards suggest) would be wrong here.
Transcribed: the guide's `BiasAdderWithRunningMean` cell and the `update_step` cell (docs/guides/flax_fundamentals/flax_basics.md at commit 3e789b71dd67ebf054b20b50fcadb52a5548d9ac), with the imports of the guide's first cells; the print in the loop is kept, and a trace counter, checks (two traces, the second caused by the state's new shape) and one more call after the loop that must not trace again were added.
"""
from functools import partial

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from jax import random

TRACES = [0]


class BiasAdderWithRunningMean(nn.Module):
  decay: float = 0.99

  @nn.compact
  def __call__(self, x):
    # easy pattern to detect if we're initializing via empty variable tree
    is_initialized = self.has_variable('batch_stats', 'mean')
    ra_mean = self.variable('batch_stats', 'mean',
                            lambda s: jnp.zeros(s),
                            x.shape[1:])
    bias = self.param('bias', lambda rng, shape: jnp.zeros(shape), x.shape[1:])
    if is_initialized:
      ra_mean.value = self.decay * ra_mean.value + (1.0 - self.decay) * jnp.mean(x, axis=0, keepdims=True)

    return x - ra_mean.value + bias


model = BiasAdderWithRunningMean()


@partial(jax.jit, static_argnums=(0, 1))
def update_step(tx, apply_fn, x, opt_state, params, state):
  TRACES[0] += 1

  def loss(params):
    y, updated_state = apply_fn({'params': params, **state},
                                x, mutable=list(state.keys()))
    l = ((x - y) ** 2).sum()
    return l, updated_state

  (l, state), grads = jax.value_and_grad(loss, has_aux=True)(params)
  updates, opt_state = tx.update(grads, opt_state)
  params = optax.apply_updates(params, updates)
  return opt_state, params, state

x = jnp.ones((10,5))
variables = model.init(random.key(0), x)
state, params = flax.core.pop(variables, 'params')
del variables
tx = optax.sgd(learning_rate=0.02)
opt_state = tx.init(params)

for _ in range(3):
  opt_state, params, state = update_step(tx, model.apply, x, opt_state, params, state)
  print('Updated state: ', state)

assert TRACES[0] == 2, TRACES
assert state['batch_stats']['mean'].shape == (1, 5)
opt_state, params, state = update_step(tx, model.apply, x, opt_state, params, state)
assert TRACES[0] == 2, TRACES
print("OK: static tx and model.apply built once; only the state's shape change retraced")
