"""Source: https://github.com/jax-ml/jax/issues/17158
Library: plain-jax
Reported: moving a function with static_argnums=(1,) into a class makes index 1 the array x instead of the flag neg (self is index 0), and the call fails with 'Non-hashable static arguments are not supported ... ArrayImpl'.
Transcribed: the report's second snippet (its first, the same function at module level, works). self, a plain object, is traced as well: jax 0.10.2 reports it first ('Error interpreting argument ... of type Test').
Hard: the jitted function is a method, so static_argnums counts self; the array reaches static position 1 through a call of the bound method.
"""
from functools import partial
import jax
import jax.numpy as jnp

class Test:
  @partial(jax.jit, static_argnums=(1,))  # expect: jit-method-self
  def f(self, x, neg):
    return -x if neg else x

t = Test()
arr = jnp.array([1,2])
result = t.f(arr, True)  # expect: static-dynamic-child
