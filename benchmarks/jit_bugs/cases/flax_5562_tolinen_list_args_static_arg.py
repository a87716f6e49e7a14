"""Source: https://github.com/google/flax/pull/5562
Library: plain-jax
Reported: standard Linen modules are hashable dataclasses and can be passed as static arguments to jax.jit, but `flax.nnx.bridge.ToLinen` built with mutable `args` (a list) or `kwargs` (a plain dict) keeps them as given, so hashing the module fails ("unhashable type" / "Failed to hash Flax Module") and jit refuses it as a static argument; the PR converts `args` to a tuple and `kwargs` to a FrozenDict in `__post_init__` (follow-up to issue #4156, whose tuple-args example hashes fine today).
Transcribed: the PR describes the failure without a script; the module construction `nnx.bridge.ToLinen(nnx.Linear, args=[32, 64])` follows issue #4156's example with the list the PR names, and the jitted apply taking the module as a static argument, its init and its call are added (flax 0.12.8, jax 0.10.2).
Hard: the list reaches jit's hash only as a field of a flax Module (a value class hashed over its fields); the declared field type of ToLinen.args is a Sequence, so only the argument at the construction shows it is a list.
"""
from functools import partial

import jax
import jax.numpy as jnp
from flax import nnx

model = nnx.bridge.ToLinen(nnx.Linear, args=[32, 64])


@partial(jax.jit, static_argnums=0)
def apply(model, variables, x):
  return model.apply(variables, x)


x = jnp.ones((1, 32))
variables = model.init(jax.random.key(0), x)
y = apply(model, variables, x)  # expect: static-unhashable
