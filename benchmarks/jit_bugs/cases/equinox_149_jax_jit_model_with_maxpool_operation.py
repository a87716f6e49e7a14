"""Source: https://github.com/patrick-kidger/equinox/issues/149
Library: plain-jax
Reported: "Updating `operation` in `equinox.nn.Pool` to `static_field`?": a model holding `eqx.nn.MaxPool2d` passed to a `@jax.jit` function raises `TypeError: Argument '<function max ...>' of type <class 'function'> is not a valid JAX type`; it works under `eqx.filter_jit`. The pool module stores its reduction function (`lax.max`) as an ordinary field, so the model is a pytree with a function leaf, and `jax.jit` tries to trace every leaf; the maintainer answers that this is intended (filtering exists for it). Running it here (jax 0.10.2, equinox 0.13.8) raises `TypeError: Error interpreting argument to <function forward ...> as an abstract array. The problematic value is of type <class 'function'> and was passed to the function at path model.maxp.operation`.
Transcribed: the report's script as written, except that `from equinox.custom_types import Array` (module since removed) is `from jaxtyping import Array`.
Hard: the function leaf is inside a library module (`eqx.nn.MaxPool2d`, a field of `Net` typed `eqx.Module`), not in user code.
"""
from jaxtyping import Array

import jax
import jax.random as jrandom
import equinox as eqx
import equinox.nn as nn


class Net(eqx.Module):
  maxp: eqx.Module

  def __init__(self):
      super().__init__()
      self.maxp = nn.MaxPool2d(kernel_size=3, stride=2)

  def __call__(self, x: Array) -> Array:
      return self.maxp(x)


@jax.jit  #breaks
# @eqx.filter_jit  #works
def forward(model, x):
    return jax.vmap(model)(x)

model = Net()
random_image = jax.random.uniform(key=jrandom.PRNGKey(0), shape=(1, 3, 224, 224))
output = forward(model, random_image)  # expect: jit-unsupported-argument
print(output.shape)
