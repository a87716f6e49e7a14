"""Source: https://github.com/jax-ml/jax/issues/9023
Library: plain-jax
Reported: a method jitted with a static self keeps calling the old function after the instance's attribute is replaced.
"""
from functools import partial

from jax import jit

class test:
    def __init__(self) -> None:
        pass
    @partial(jit, static_argnums=(0,))  # expect: static-identity-hash
    def wrapper(self,x):
        return self.fn(x)
    def assign_fn(self,fn):
        self.fn = fn

t = test()

fn = lambda x: x + 1
t.assign_fn(fn)
print(t.wrapper(1)) # prints 2, as expect

fn = lambda x: x + 2
t.assign_fn(fn)
print(t.wrapper(1)) # stills prints 2, although it should print 3
print(t.fn(1)) # prints 3
print(t.wrapper(1)) # stills prints 2
