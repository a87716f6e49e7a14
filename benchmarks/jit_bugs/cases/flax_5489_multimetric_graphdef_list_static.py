"""Source: https://github.com/google/flax/issues/5489
Library: plain-jax
Reported: splitting a model, its optimizer and an nnx.MultiMetric into (graphdef, state) and passing the graphdef in a static_argnames position of jax.jit fails, because MultiMetric keeps its metric names in a list, which ends up in the graphdef and cannot be hashed (the fix, flax pull request 5492, made it a tuple).
Transcribed: the report's TrivialModel, setup and run_step_error1; the stored copy is cut off inside run_step_error1's loss_fn, so its rest is written like the report's run_step (gradient, optimizer.update, metrics.update, return loss), and the split and the call the report describes were added. The installed flax (0.12.8) already has the fix, so the call now runs.
Hard: the list is an internal attribute of a library object (MultiMetric._metric_names), visible only in the GraphDef that nnx.split returns.
"""
import jax
import jax.numpy as jnp
from flax import nnx
import optax
from functools import partial

class TrivialModel(nnx.Module):
	def __init__(self, in_features: int, out_features: int, rngs: nnx.Rngs):
		self.linear = nnx.Linear(in_features, out_features, rngs=rngs)

	def __call__(self, x: jax.Array) -> jax.Array:
		return self.linear(x)

def setup():
	rngs = nnx.Rngs(0)
	model = TrivialModel(in_features=4, out_features=2, rngs=rngs)
	optimizer = nnx.ModelAndOptimizer(model, optax.sgd(learning_rate=0.01))
	metrics = nnx.MultiMetric(loss=nnx.metrics.Average('loss'))
	return model, optimizer, metrics

@partial(jax.jit, static_argnames=['graphdef'])
def run_step_error1(graphdef: nnx.GraphDef, state: nnx.State, x: jax.Array, y: jax.Array):
	model, optimizer, metrics = nnx.merge(graphdef, state)
	def loss_fn(m: nnx.Module):
		predictions = m(x)
		# Simple Mean Squared Error
		return jnp.mean((predictions - y) ** 2)
	loss, grads = nnx.value_and_grad(loss_fn)(model)
	optimizer.update(grads)
	metrics.update(loss=loss)
	return loss

model, optimizer, metrics = setup()
graphdef, state = nnx.split((model, optimizer, metrics))
x = jnp.ones((8, 4))
y = jnp.zeros((8, 2))
print(run_step_error1(graphdef, state, x, y))  # expect: static-unhashable
