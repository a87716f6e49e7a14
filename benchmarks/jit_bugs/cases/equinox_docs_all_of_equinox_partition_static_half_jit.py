"""Source: https://github.com/patrick-kidger/equinox/blob/075ca910eb1707dfb597bcbb46bb119aa96eb556/docs/all-of-equinox.md
Library: plain-jax
Correct: "All of Equinox", section 2 (Filtering), option 1: the model holds `jax.nn.relu` among its layers, so it is split with `eqx.partition(model, eqx.is_array)` and the non-array half is passed in `static_argnums=1` of `jax.jit` (over `jax.grad`). The static half is an equinox module whose fields are a tuple of layers with their arrays replaced by None and a module-level function; it hashes and compares by value, so a second partition of the model is equal to the first and hits the same compiled code. Option 2, `eqx.filter_jit` over `eqx.filter_grad`, does the same split inside. A checker that reports the static half as an identity-hashed or array-holding static value, or the function leaf `jax.nn.relu` inside it, would flag the documented idiom.
Transcribed: the section's code as written (model, option 1, option 2); the second partition and call of option 1, and the count of backend compilations (a `jax.monitoring` listener, outside the traced code), were added to show the cache hit.
"""
import equinox as eqx
import functools as ft
import jax

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)

class NeuralNetwork2(eqx.Module):
    layers: tuple

    def __init__(self, key):
        key1, key2 = jax.random.split(key)
        self.layers = (eqx.nn.Linear(2, 8, key=key1),
                       jax.nn.relu,
                       eqx.nn.Linear(8, 2, key=key2))

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

x_key, y_key, model_key = jax.random.split(jax.random.PRNGKey(0), 3)
x, y = jax.random.normal(x_key, (100, 2)), jax.random.normal(y_key, (100, 2))
model = NeuralNetwork2(model_key)

# Option 1: use `eqx.{partition,combine}`

@ft.partial(jax.jit, static_argnums=1)  # `static` must be a PyTree of non-arrays.
@jax.grad  # differentiates with respect to `params`, as it is the first argument
def loss(params, static, x, y):
    model = eqx.combine(params, static)
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

params, static = eqx.partition(model, eqx.is_array)
loss(params, static, x, y)

before = compiles
params2, static2 = eqx.partition(model, eqx.is_array)
loss(params2, static2, x, y)
print("recompiled for an equal static half:", compiles != before)  # False

# Option 2: use filtered transformations

@eqx.filter_jit
@eqx.filter_grad
def loss(model, x, y):
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

loss(model, x, y)
