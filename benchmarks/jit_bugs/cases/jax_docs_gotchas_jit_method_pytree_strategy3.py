"""Source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#strategy-3-making-customclass-a-pytree
Library: plain-jax
Correct: Strategy 3 of the "Using jax.jit with class methods" section: `@jit` directly on the method `calc` of a class that is registered as a pytree with `register_pytree_node` (children `(self.x,)`, aux data a dict `{'mul': self.mul}` built afresh by every flatten). `self` is then an ordinary traced pytree argument, so `c.mul = False` is picked up (the next call flattens the changed object and compiles for the new aux data) and an array `x` is a traced leaf, not a static value. A strict checker could flag `@jit` on a method (jit-method-self), a dict in pytree aux data, or the mutation of an object passed to jit; none is a hazard here.
Transcribed: the section's Strategy 3 cells (docs/notebooks/Common_Gotchas_in_JAX.md in jax-ml/jax at commit ee6cce5601fe1a81cec914bf50f3cbd9a72d69b1) with the imports of the section's first cell; the three printed results are checked with asserts (6, 3, 6).
"""
import jax.numpy as jnp
from jax import jit


class CustomClass:
  def __init__(self, x: jnp.ndarray, mul: bool):
    self.x = x
    self.mul = mul

  @jit
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y

  def _tree_flatten(self):
    children = (self.x,)  # arrays / dynamic values
    aux_data = {'mul': self.mul}  # static values
    return (children, aux_data)

  @classmethod
  def _tree_unflatten(cls, aux_data, children):
    return cls(*children, **aux_data)

from jax import tree_util
tree_util.register_pytree_node(CustomClass,
                               CustomClass._tree_flatten,
                               CustomClass._tree_unflatten)

c = CustomClass(2, True)
print(c.calc(3))
assert int(c.calc(3)) == 6

c.mul = False  # mutation is detected
print(c.calc(3))
assert int(c.calc(3)) == 3

c = CustomClass(jnp.array(2), True)  # non-hashable x is supported
print(c.calc(3))
assert int(c.calc(3)) == 6
print("OK: the pytree-registered self is traced, the mutation is seen, an array x is a leaf")
