"""Source: https://github.com/jax-ml/jax/issues/5595
Library: plain-jax
Reported: @jit on a method fails with "Argument '<__main__.A1 object ...>' of type <class '__main__.A1'> is not a valid JAX type".
Transcribed: the failing variant; the report's working variant (jit in __init__) is left out.
"""
import jax
from jax import jit

class A1:
    def __init__(self):
        # self.f = jax.jit(self.f)
        pass

    @jit  # expect: jit-method-self
    def f(self, x):
        return x

a = A1()
print(a.f(5))
