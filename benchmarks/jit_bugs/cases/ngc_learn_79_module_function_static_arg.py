"""Source: https://github.com/NACLab/ngc-learn/pull/79
Library: plain-jax
Correct: a maintainer's reply in the review shows that a function passed to a jitted function must be a static argument, and that the version with static_argnums=(1) works: func1 and func2 are module-level functions, made once at import, so hashing them by identity is hashing them by value; each compiles root once and a repeated call reuses it. A checker that called every callable in a static position a fresh or identity-hashed value would be wrong here.
Transcribed: the reply's second snippet (the working one); its first snippet, root jitted without static_argnums, which fails because a function is not a JAX type, is left out.
"""
from jax import jit
from functools import partial

def func1(foo):
    return foo * 2

def func2(foo):
    return foo * 3

@partial(jit, static_argnums=(1))
def root(base, method):
    return method(base)

root(3, func1)

root(3, func2)
