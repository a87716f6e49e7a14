"""Source: https://github.com/jax-ml/jax/issues/15727
Library: plain-jax
Reported: @jax.jit under @classmethod traces the class passed as the first argument and fails with 'Cannot interpret value of type <class 'type'> as an abstract array'.
Transcribed: the report's first snippet.
Hard: the jitted function is a classmethod of a plain class: its first parameter (named shape here) receives the class object.
"""
import jax
import jax.numpy as jnp
from functools import partial


class A:
    def __init__(self):
        pass

    @classmethod
    #@partial(jax.jit, static_argnums=0)  # this one does not work as well
    @jax.jit  # expect: jit-method-self
    def zeros(shape):
        return jnp.zeros(shape)


print(A.zeros((2, 3)))
