"""Source: https://github.com/jax-ml/jax/issues/14033
Library: plain-jax
Reported: a class whose only member is returned as aux data by its tree_flatten behaves surprisingly under jit when that member is a jax array: x.a prints as a concrete 1.0, but copy(x.a) is a tracer and x.a == 1 raises a ConcretizationTypeError; with a Python float or a numpy array the same function works.
Transcribed: the stored copy of the report is cut off where its snippet begins, so the class and the function are written from the report's description (a register_pytree_node_class class whose only member is the aux data; fun prints x.a and copy(x.a) and compares x.a == 1, here in an if, where the error shows); the first call, with a jax array, which the report says fails, was added (the float and numpy calls, which work, are left out).
Hard: a is static only because the hand-written tree_flatten returns it in the aux data; the attribute is assigned in __init__ without a declared type, so the array is visible only at the constructor call.
"""
from copy import copy

import numpy
import jax


@jax.tree_util.register_pytree_node_class
class CustomValue:
  def __init__(self, a):
    self.a = a

  def tree_flatten(self):
    return (), (self.a,)

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*aux_data)


@jax.jit
def fun(x):
  print(x.a)
  print(copy(x.a))
  if x.a == 1:
    return 1.
  return 0.


fun(CustomValue(jax.numpy.array(1.)))  # expect: static-dynamic-child
