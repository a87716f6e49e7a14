"""Source: https://github.com/jax-ml/jax/issues/9672
Library: plain-jax
Reported: jitting a bound method at the call site recompiles on every call.
Transcribed: the recompiling variant; the report's first variant (static self) is left out.
"""
from jax import jit

class X:
  def f(self):
    print("Recompiling")

x = X()
for i in range(3):
    jit(x.f)()  # expect: jit-bound-method
