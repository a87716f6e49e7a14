"""Source: https://github.com/jax-ml/jax/issues/13027
Library: plain-jax
Reported: a pytree class whose tree_flatten returns a numpy array as aux data gives treedefs that hash without complaint, but comparing two of them (as jit's cache lookup does) crashes.
Transcribed: as reported; nothing added.
Hard: x is static only because the hand-written tree_flatten returns it in the aux data; the class annotates it np.ndarray, but no jit call appears: the failure is the treedef comparison the jit cache makes.
"""
import numpy as np
import jax

@jax.tree_util.register_pytree_node_class
class A:
  x: np.ndarray  # not hashable!  # expect: static-dynamic-child
  def __init__(self, x):
    self.x = x
  def tree_flatten(self):
    return (), (self.x,)  # metadata is not hashable!
  @classmethod
  def tree_unflatten(cls, aux_data, children):
    () = children
    x, = aux_data
    return cls(x)


a = A(np.arange(3.))
_, treedef1 = jax.tree_util.tree_flatten(a)
b = A(np.arange(3.))
_, treedef2 = jax.tree_util.tree_flatten(b)
print(hash(treedef1))  # hash works!
print(hash(treedef2))  # hash works!
print(treedef1 == treedef2)  # this crashes
