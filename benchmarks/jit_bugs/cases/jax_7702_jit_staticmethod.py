"""Source: https://github.com/jax-ml/jax/issues/7702
Library: plain-jax
Correct: a jitted staticmethod has no self, so nothing about the class reaches jit; jax rejected it only because staticmethod objects were not callable before Python 3.10.
"""
import jax

class Foo:
  @jax.jit
  @staticmethod
  def foo(x):
    return x * 2

print(Foo.foo(3))
