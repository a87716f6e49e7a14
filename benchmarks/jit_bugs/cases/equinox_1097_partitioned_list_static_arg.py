"""Source: https://github.com/patrick-kidger/equinox/issues/1097
Library: plain-jax
Reported: the 'All of Equinox' filtering example passes the static half of a partitioned model, which holds a list of layers, in a static position of jax.jit and fails with 'TypeError: unhashable type: list'.
Transcribed: the report quotes Option 1 of the example; the model it refers to is the documentation's NeuralNetwork2 as it stood when reported (layers a list, 'layers: list'), which the maintainer changed to a tuple after this report. Its imports and data set-up are the documentation's.
Hard: the list sits in a Module field that eqx.partition moves into the static half.
"""
import equinox as eqx
import functools as ft
import jax

class NeuralNetwork2(eqx.Module):
    layers: list

    def __init__(self, key):
        key1, key2 = jax.random.split(key)
        self.layers = [eqx.nn.Linear(2, 8, key=key1),
                       jax.nn.relu,
                       eqx.nn.Linear(8, 2, key=key2)]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

x_key, y_key, model_key = jax.random.split(jax.random.PRNGKey(0), 3)
x, y = jax.random.normal(x_key, (100, 2)), jax.random.normal(y_key, (100, 2))
model = NeuralNetwork2(model_key)

@ft.partial(jax.jit, static_argnums=1)  # `static` must be a PyTree of non-arrays.
@jax.grad  # differentiates with respect to `params`, as it is the first argument
def loss(params, static, x, y):
    model = eqx.combine(params, static)
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

params, static = eqx.partition(model, eqx.is_array)
loss(params, static, x, y)  # expect: static-unhashable
