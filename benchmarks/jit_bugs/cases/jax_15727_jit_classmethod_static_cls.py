"""Source: https://github.com/jax-ml/jax/issues/15727
Library: plain-jax
Correct: a classmethod jitted with static_argnums=(0, 1): the class itself is the static first argument (a class hashes by identity and there is one of it) and the shape tuple the second; the reporter confirmed it works.
Transcribed: the fix a commenter posted in the thread; the call of the report was added.
"""
import jax
import jax.numpy as jnp
from functools import partial


class A:
    def __init__(self):
        pass

    @classmethod
    @partial(jax.jit, static_argnums=(0,1))
    def zeros(cls, shape):
        return jnp.zeros(shape)


print(A.zeros((2, 3)))
