"""Source: https://flax.readthedocs.io/en/latest/flax.struct.html
Library: flax
Correct: the flax.struct.dataclass documentation's example keeps a function in a static field (apply_fn: Callable = struct.field(pytree_node=False)) and fills it with a lambda. The lambda is made once, at module level, and the same object is given to both Model instances, so every treedef holding it compares equal (functions compare by identity, and it is one identity); the instances are frozen and changed only through replace. A checker that reported a lambda in a static field as a fresh callable would be wrong here: it is not made per call or per step.
Transcribed: the docstring example of flax.struct.dataclass (flax/struct.py at commit 18f8f311c275d57f46d95e41b15aa97b454754c0, rendered on the page above) with the doctest prompts removed; the commented-out assignment that raises is kept as a comment. Observed (flax 0.12.8, jax 0.10.2): runs; model_grad is a Model with empty params and the same apply_fn.
"""
from flax import struct
import jax
from typing import Any, Callable

@struct.dataclass
class Model:
  params: Any
  # use pytree_node=False to indicate an attribute should not be touched
  # by Jax transformations.
  apply_fn: Callable = struct.field(pytree_node=False)

  def __apply__(self, *args):
    return self.apply_fn(*args)

params = {}
params_b = {}
apply_fn = lambda v, x: x
model = Model(params, apply_fn)

# model.params = params_b  # Model is immutable. This will raise an error.
model_b = model.replace(params=params_b)  # Use the replace method instead.

# This class can now be used safely in Jax to compute gradients w.r.t. the
# parameters.
model = Model(params, apply_fn)
loss_fn = lambda model: 3.
model_grad = jax.grad(loss_fn)(model)
