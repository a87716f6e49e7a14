"""Source: https://stackoverflow.com/questions/78918890 (read at https://coderapp.vercel.app/answer/78918890)
Library: plain-jax
Reported: jit(c.calc) seems to work, but after c.mul changes the jitted method still returns the old result.
Transcribed: the question's second and third snippets, joined.
"""
import jax.numpy as jnp
from jax import jit

class CustomClass:
  def __init__(self, x: jnp.ndarray, mul: bool):
    self.x = x
    self.mul = mul

  # No decorator here !
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y


c = CustomClass(2, True)
jitted_calc = jit(c.calc)  # expect: jit-bound-method
print(jitted_calc(3))
c.mul = False
print(jitted_calc(3))
