"""Source: https://github.com/jax-ml/jax/issues/28418
Library: plain-jax
Reported: with a static self whose class defines __hash__ but not __eq__, mutating the instance gives random results: sometimes a retrace, sometimes the stale value.
Hard: the class hashes by value but still compares by identity (object.__eq__).
"""
import jax
from functools import partial

class MyClass:
    def __init__(self):
        self.a = 1
    @partial(jax.jit, static_argnums=0)  # expect: static-identity-hash
    def f(self):
        print('tracing')
        return self.a + 1
    def __hash__(self):
        return hash(self.a)

obj = MyClass()
print(obj.f())
obj.a = 2
print(obj.f())
