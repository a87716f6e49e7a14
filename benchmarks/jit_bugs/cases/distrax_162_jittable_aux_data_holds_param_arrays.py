"""Source: https://github.com/google-deepmind/distrax/issues/162
Library: plain-jax
Reported: distrax's Jittable base class (of all Distributions and Bijectors) flattened every attribute, arrays included, into the pytree's aux data (tree_flatten returned no children and `self.__dict__` as metadata). A jitted function therefore failed when called with a second distribution whose parameters differ from the first one's, since the arrays were compared as static metadata, and changing an attribute inside the jitted function left a tracer in the metadata. The fix (commit 0ecad051d48e0ebab77bac256186641b6053a0d5) added the regression test transcribed here.
Transcribed: Jittable as it stood before the fix (distrax/_src/utils/jittable.py at commit f2ef70c39350c7487b109176340ec506d8406e00), DummyJittable from that commit's jittable_test.py, and the body of test_different_jittables_to_compiled_function from the fix commit, with the two `self.subTest` blocks unrolled into plain statements; the license header and absl test scaffolding are dropped, and the imports (abc, jax, jax.numpy as jnp, numpy as np) kept. Observed (jax 0.10.2): the first call works; the second call (np.ones params) raises ValueError "Exception raised while checking equality of metadata fields of pytree ... (Note: arrays cannot be passed as metadata fields!)"; the jax.numpy pair fails the same way when run alone.
Hard: the arrays reach the aux data two levels down: the constructor argument is stored in a dict attribute (self.data = {'params': params}) and tree_flatten returns the whole instance __dict__ as aux data; the attributes have no declared types, so the arrays are visible only at the constructor calls.
"""
import abc

import jax
import jax.numpy as jnp
import numpy as np


class Jittable(metaclass=abc.ABCMeta):
  """ABC that can be passed as an arg to a jitted fn, with readable state."""

  def __new__(cls, *args, **kwargs):
    try:
      registered_cls = jax.tree_util.register_pytree_node_class(cls)
    except ValueError:
      registered_cls = cls  # already registered
    instance = super(Jittable, cls).__new__(registered_cls)
    instance._args = args
    instance._kwargs = kwargs
    return instance

  def tree_flatten(self):
    return ((), ((self._args, self._kwargs), self.__dict__))

  @classmethod
  def tree_unflatten(cls, aux_data, _):
    (args, kwargs), state_dict = aux_data
    obj = cls(*args, **kwargs)
    obj.__dict__ = state_dict
    return obj


class DummyJittable(Jittable):

  def __init__(self, params):
    self.name = 'dummy'  # Non-JAX property, cannot be traced.
    self.data = {'params': params}  # Tree property, must be traced recursively.


@jax.jit
def add_one_to_params(obj):
  obj.data['params'] = obj.data['params'] + 1
  return obj

# subTest('numpy')
add_one_to_params(DummyJittable(np.zeros((5,))))  # expect: static-dynamic-child
add_one_to_params(DummyJittable(np.ones((5,))))  # expect: static-dynamic-child

# subTest('jax.numpy')
add_one_to_params(DummyJittable(jnp.zeros((5,))))  # expect: static-dynamic-child
add_one_to_params(DummyJittable(jnp.ones((5,))))  # expect: static-dynamic-child
