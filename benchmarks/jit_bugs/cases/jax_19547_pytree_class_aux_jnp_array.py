"""Source: https://github.com/jax-ml/jax/issues/19547
Library: plain-jax
Reported: a register_pytree_node_class class whose tree_flatten returns a jnp array as aux data works with the first instance; the jitted function fails on a second, identical instance, when jit compares the two treedefs.
Transcribed: the stored copy of the report is cut off after the comment '# doing the s'; the two jitted calls are completed as the report describes them (the first instance works, the second fails).
Hard: x is static only because the hand-written tree_flatten returns it in the aux data; the attribute is assigned in __init__ without a declared type, so the array is visible only at the constructor calls.
"""
import jax
from jax.tree_util import register_pytree_node_class
from jax import numpy as jnp

@register_pytree_node_class
class SimpleClass:
  def __init__(self, x, y):        
    self.x = x
    self.y = y

  def tree_flatten(self):
      children = (self.y, )
      aux_data = (self.x,) # x has to be auxiliary to raise this error
      return (children, aux_data,)
  
  @classmethod
  def tree_unflatten(cls, aux_data, children):
        x, = children
        y, = aux_data
        return cls(x, y)

# create similar objects
a = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))  # expect: static-dynamic-child
b = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))  # expect: static-dynamic-child

# just define the simplest function ever to return the object passed to it
def func(param):
   return param

resa = func(a) # this works
resb = func(b) # this works

# jitting the function
func = jax.jit(func)

# doing the same with the jitted function
resa = func(a) # this works
resb = func(b) # this fails
