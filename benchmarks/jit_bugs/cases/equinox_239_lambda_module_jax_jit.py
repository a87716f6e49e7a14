"""Source: https://github.com/patrick-kidger/equinox/pull/239
Library: plain-jax
Reported: the FAQ example this pull request adds: an equinox model that holds a Python function (eqx.nn.Lambda) passed as an ordinary argument of jax.jit fails with "Argument '<function ...>' of type <class 'function'> is not a valid JAX type"; eqx.filter_jit accepts it.
Transcribed: the docs/faq.md example from the pull request's diff, as written (the error is caught and printed).
Hard: the model is an equinox Module, a pytree, and jit flattens it down to the lambda held in its fn field.
"""
import jax
import equinox as eqx

def loss_fn(model, x, y):
    return (model(x) - y) ** 2

model = eqx.nn.Lambda(lambda x: x)

try:
    jax.jit(loss_fn)(model, 0, 0) # error  # expect: jit-unsupported-argument
except TypeError as e:
    print(e)

eqx.filter_jit(loss_fn)(model, 0, 0) # ok
