"""Source: https://github.com/jax-ml/jax/issues/13992
Library: plain-jax
Reported: a static argument hashed by value but mutated after the first call makes jit return the function compiled for its old value.
Hard: the class defines __hash__ and __eq__ over a mutable attribute; nothing but its mutability is wrong.
"""
from functools import partial
from jax import jit

class StaticValue:
  def __init__(self, val):
    self.val = val

  def __hash__(self):
    return hash(self.val)

  def __eq__(self, other):
    return isinstance(other, StaticValue) and self.val == other.val

@partial(jit, static_argnums=0)
def add(v, y):
  return y + v.val

v = StaticValue(100)
print(add(v, 1))  # expect: static-not-frozen
# 101

v.val = 0
print(add(v, 1))  # cache miss, as expected because hash changed.  # expect: static-not-frozen
# 1
print(add(v, 1))  # cache hit, but returns wrong cached function.  # expect: static-not-frozen
# 101
