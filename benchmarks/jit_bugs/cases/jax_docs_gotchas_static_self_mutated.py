"""Source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#strategy-2-marking-self-as-static
Library: plain-jax
Reported: JAX's "Common Gotchas" page, section "Using jax.jit with class methods", Strategy 2: marking `self` static with `jit(static_argnums=0)` on a method of a plain class makes the call work, "However, there is a catch: if you mutate the object after the first method call, the subsequent method call may return an incorrect result": after `c.mul = False`, `c.calc(3)` should print 3 but still prints 6, because the default `__hash__` is the object ID and jit never sees the change. The page labels the example "broken ... Don't copy & paste!".
Transcribed: the section's broken CustomClass cell and its two calls (docs/notebooks/Common_Gotchas_in_JAX.md in jax-ml/jax at commit ee6cce5601fe1a81cec914bf50f3cbd9a72d69b1), with `import jax.numpy as jnp` / `from jax import jit` from the section's first cell; `print` results checked with asserts.
"""
import jax.numpy as jnp
from jax import jit


class CustomClass:
  def __init__(self, x: jnp.ndarray, mul: bool):
    self.x = x
    self.mul = mul

  # WARNING: this example is broken, as we'll see below. Don't copy & paste!
  @jit(static_argnums=0)  # expect: static-identity-hash
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y


c = CustomClass(2, True)
print(c.calc(3))

c.mul = False
print(c.calc(3))  # Should print 3

assert int(c.calc(3)) == 6, "expected the stale result the docs describe"
print("BUG: after c.mul = False the jitted method still returns the mul=True result (6)")
