"""Source: https://github.com/jax-ml/jax/issues/19570
Library: plain-jax
Reported: jax.jit(foo.f) misses the cache every time because each foo.f is a new bound method, so the method is traced again.
"""
import jax

class Foo:

  def __init__(self):
    self.f_traced = False

  def f(self):
    print('f')
    assert not self.f_traced
    self.f_traced = True

foo = Foo()
jax.jit(foo.f).lower()  # expect: jit-bound-method
jax.jit(foo.f).lower()  # Fails with assertion error.  # expect: jit-bound-method
