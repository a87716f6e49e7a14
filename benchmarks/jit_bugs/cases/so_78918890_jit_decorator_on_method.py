"""Source: https://stackoverflow.com/questions/78918890 (read at https://coderapp.vercel.app/answer/78918890)
Library: plain-jax
Reported: the documented example of @jit on a method does not work: jit cannot handle self of type CustomClass.
Transcribed: the question's first snippet.
"""
import jax.numpy as jnp
from jax import jit

class CustomClass:
  def __init__(self, x: jnp.ndarray, mul: bool):
    self.x = x
    self.mul = mul

  @jit  # <---- How to do this correctly?  # expect: jit-method-self
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y


c = CustomClass(2, True)
c.calc(3)
