"""Source: https://github.com/google/flax/blob/84da828a35aa47617cfa64fed73f0189dbe3e79c/docs_nnx/guides/performance.md
Library: plain-jax
Correct: Flax NNX's "Performance considerations" guide splits `(model, optimizer, metrics)` once before the loop into a `graphdef` and a `state`, and passes both to a plain `@jax.jit` train step that merges them inside. The GraphDef is a pytree without leaves (all of it is static structure, compared and hashed by value) and the State is the traced part, so the ten steps compile once even though `graphdef` holds the whole module graph, including a `MultiMetric` (whose GraphDef failed to hash under jit in flax 0.12.7, flax issue 5489; fixed in 0.12.8). A checker that reports every GraphDef or NNX object reaching `jax.jit` as unhashable or as a mutable static value would be wrong here.
Transcribed: the guide's model / optimizer / metrics cell (without the `@nnx.jit` train_step and its loop) and its "Functional training loop" cell (docs_nnx/guides/performance.md at commit 84da828a35aa47617cfa64fed73f0189dbe3e79c), with the imports of the guide's first cell; a trace counter and a check were added.
"""
from flax import nnx
import jax
import jax.numpy as jnp
import optax

TRACES = [0]


class Model(nnx.Module):
  def __init__(self, din, dmid, dout, rngs: nnx.Rngs):
    self.linear = nnx.Linear(din, dmid, rngs=rngs)
    self.bn = nnx.BatchNorm(dmid, use_running_average=False, rngs=rngs)
    self.dropout = nnx.Dropout(0.2, deterministic=False, rngs=rngs)
    self.linear_out = nnx.Linear(dmid, dout, rngs=rngs)

  def __call__(self, x):
    x = nnx.relu(self.dropout(self.bn(self.linear(x))))
    return self.linear_out(x)
  
model = Model(2, 64, 3, rngs=nnx.Rngs(0))  # eager initialization
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
metrics = nnx.MultiMetric(
  loss=nnx.metrics.Average('loss'),
)

# split before training loop
graphdef, state = nnx.split((model, optimizer, metrics))

@jax.jit  # regular JAX
def jax_train_step(graphdef, state, x, y):
  TRACES[0] += 1
  # merge at the beginning of the function
  model, optimizer, metrics = nnx.merge(graphdef, state)

  def loss_fn(model):
    y_pred = model(x)  # call methods directly
    return ((y_pred - y) ** 2).mean()

  loss, grads = nnx.value_and_grad(loss_fn)(model)
  optimizer.update(model, grads)
  metrics.update(loss=loss)

  state = nnx.state((model, optimizer, metrics))
  return loss, state

for _ in range(10):
  x, y = jnp.ones((32, 2)), jnp.zeros((32, 3))
  loss, state = jax_train_step(graphdef, state, x, y)

# update objects after training
nnx.update((model, optimizer, metrics), state)

assert TRACES[0] == 1, TRACES
print("OK: graphdef split once; ten steps on one compilation; loss", float(loss))
