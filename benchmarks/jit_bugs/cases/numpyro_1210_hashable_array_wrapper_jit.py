"""Source: https://github.com/pyro-ppl/numpyro/issues/1210
Library: plain-jax
Correct: the reporter's gnool_jit wraps every array (and every array inside a tuple) it is told is static in a HashableArrayWrapper, whose __hash__ and __eq__ compare contents, before calling a function jitted with those positions static, and unwraps them inside; equal arrays therefore hit the cache and different ones recompile. What the report is about (the model failing once numpyro traces it) is outside the static rules. A checker that followed the raw arrays in the caller's *args, or the list(args) rebuilt from them, into the static positions would be wrong here.
Transcribed: the report's HashableArrayWrapper and gnool_jit with their imports; the stored copy is cut off inside caller's tuple branch, so its rest (rebuilding the tuple from the wrappers, wrapping a bare array, calling callee) is written after callee's unwrapping and the jax thread the wrapper comes from; a namedtuple of two arrays, a function using it, and two calls were added.
Hard: to stay silent, the checker must see that the static positions receive args rebuilt from HashableArrayWrapper objects, a class with content-based __hash__ and __eq__, inside the *args wrapper.
"""
from collections import namedtuple
from functools import partial

import jax.numpy as jnp
from jax import jit

def some_hash_function(x):
    return int(jnp.sum(x))

class HashableArrayWrapper:
    def __init__(self, val):
        self.val = val
    def __hash__(self):
        return some_hash_function(self.val)
    def __eq__(self, other):
        return (isinstance(other, HashableArrayWrapper) and
                jnp.all(jnp.equal(self.val, other.val)))

def gnool_jit(fun, static_array_argnums=()):
    @partial(jit, static_argnums=static_array_argnums)
    def callee(*args):
        args = list(args)
        for i in static_array_argnums:
            if isinstance(args[i], tuple):
                args[i] = args[i].__class__(*[a.val for a in args[i]])
            else:
                args[i] = args[i].val
        return fun(*args)

    def caller(*args):
        args = list(args)
        for i in static_array_argnums:
            if isinstance(args[i], tuple):
                all_as = [HashableArrayWrapper(a) for a in args[i]]
                args[i] = args[i].__class__(*all_as)
            else:
                args[i] = HashableArrayWrapper(args[i])
        return callee(*args)

    return caller


GVARS = namedtuple('GVARS', ['a', 'b'])

@partial(gnool_jit, static_array_argnums=(0,))
def f(gvars, x):
    print('re-tracing!')
    return x * gvars.a.shape[0] + gvars.b.sum()

g = GVARS(jnp.arange(3.), jnp.ones(2))
print(f(g, 1.0))
print(f(GVARS(jnp.arange(3.), jnp.ones(2)), 2.0))
