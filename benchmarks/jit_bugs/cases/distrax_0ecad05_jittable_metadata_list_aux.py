"""Source: https://github.com/google-deepmind/distrax/commit/0ecad051d48e0ebab77bac256186641b6053a0d5
Library: plain-jax
Correct: the fix for distrax issue 162. Jittable.tree_flatten now flattens the instance __dict__ and splits its leaves: JAX data (arrays, tracers) become children, everything else (strings, bools, ints, floats, None) goes to the aux data as `(metadata, switch, treedef)`. The two lists are built afresh by every flatten from the current leaves, so nothing can change them after jit compiled for them, and jit compares aux data rather than hashing it; no array reaches the aux data (the arrays' slots in `metadata` hold None). Two DummyJittables with different parameter arrays now share one compilation. A checker that reported the lists in the aux data as unhashable static values, or the attributes assigned in __init__, would be wrong here.
Transcribed: jittable.py at the fix commit without its license header, DummyJittable from the commit's jittable_test.py, and the body of its new test_different_jittables_to_compiled_function with the two `self.subTest` blocks unrolled. Renamed JAX APIs: jax.tree_flatten -> jax.tree_util.tree_flatten, jax.tree_unflatten -> jax.tree_util.tree_unflatten, jax.xla.abstractify(x) -> jax.typeof(x) (both raise TypeError for a value that is not JAX data). Observed (jax 0.10.2): all four calls run; add_one_to_params compiles once for the two NumPy-parameter objects and once more for the jax.numpy ones (NumPy float64 arrays and jax float32 arrays are different inputs to jit; no metadata comparison fails), so its cache holds 2 entries after the four calls (checked in a scratch copy).
"""
import abc

import jax
import jax.numpy as jnp
import numpy as np


class Jittable(metaclass=abc.ABCMeta):
  """ABC that can be passed as an arg to a jitted fn, with readable state."""

  def __new__(cls, *args, **kwargs):
    # Discard the parameters to this function because the constructor is not
    # called during serialization: its `__dict__` gets repopulated directly.
    del args, kwargs
    try:
      registered_cls = jax.tree_util.register_pytree_node_class(cls)
    except ValueError:
      registered_cls = cls  # Already registered.
    return object.__new__(registered_cls)

  def tree_flatten(self):
    leaves, treedef = jax.tree_util.tree_flatten(self.__dict__)
    switch = list(map(_is_jax_data, leaves))
    children = [leaf if s else None for leaf, s in zip(leaves, switch)]
    metadata = [None if s else leaf for leaf, s in zip(leaves, switch)]
    return children, (metadata, switch, treedef)

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    metadata, switch, treedef = aux_data
    leaves = [j if s else p for j, p, s in zip(children, metadata, switch)]
    obj = object.__new__(cls)
    obj.__dict__ = jax.tree_util.tree_unflatten(treedef, leaves)
    return obj


def _is_jax_data(x):
  """Check whether `x` is an instance of a JAX-compatible type."""
  # If it's a tracer, then it's already been converted by JAX.
  if isinstance(x, jax.core.Tracer):
    return True

  # `jax.vmap` replaces vmappable leaves with `object()` during serialization.
  if type(x) is object:  # pylint: disable=unidiomatic-typecheck
    return True

  # Primitive types (e.g. shape tuples) are treated as metadata for Distrax.
  if isinstance(x, (bool, int, float)) or x is None:
    return False

  # Otherwise, try to make it into a tracer. If it succeeds, then it's JAX data.
  try:
    jax.typeof(x)
    return True
  except TypeError:
    return False


class DummyJittable(Jittable):

  def __init__(self, params):
    self.name = 'dummy'  # Non-JAX property, cannot be traced.
    self.data = {'params': params}  # Tree property, must be traced recursively.


@jax.jit
def add_one_to_params(obj):
  obj.data['params'] = obj.data['params'] + 1
  return obj

# subTest('numpy')
add_one_to_params(DummyJittable(np.zeros((5,))))
add_one_to_params(DummyJittable(np.ones((5,))))

# subTest('jax.numpy')
add_one_to_params(DummyJittable(jnp.zeros((5,))))
add_one_to_params(DummyJittable(jnp.ones((5,))))
