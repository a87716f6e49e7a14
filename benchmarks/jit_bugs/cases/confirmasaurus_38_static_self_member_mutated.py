"""Source: https://github.com/Confirm-Solutions/confirmasaurus/pull/38
Library: plain-jax
Reported: the project's JAX notes recommend "Put a bunch of shared variables into a class and then include `self` in the list of `static_argnums`", and PR 38 ("Notes on JAX static classes") adds the warning "Confusing static behavior for members of classes": "the object id is used as the hash ... because the object id is the top level hash, the members do not need to be hashed and are just treated as compile-time constant. this means that if you later changes the members of the class, JAX will not reflect those changes!", with a demonstration whose output is `10` and `10` after `W.x = 9`.
Transcribed: the demonstration from docs/jax_patterns.md as added by PR 38 (commit a023dce302aec051f3e71a89c6fb25fcd922cf09), unchanged.
Hard: self is static through static_argnums=(0,) on a method of a plain class that keeps object.__hash__; the module assigns W.x between two calls, and f reads self.x.
"""
import jax
from functools import partial

class wow:
    def __init__(self, x):
        self.x = x

    @partial(jax.jit, static_argnums=(0,))  # expect: static-identity-hash
    def f(self):
        return self.x
W = wow(10)
print(W.f())
W.x = 9
print(W.f())
