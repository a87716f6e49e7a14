"""Source: https://github.com/jax-ml/jax/issues/3045
Library: plain-jax
Reported: a function decorated with @jax.jit is called with a message string as its second argument, meant to steer Python control flow inside the function; the call fails before tracing with "TypeError: Argument 'this is my message!' of type <class 'str'> is not a valid JAX type". The reporter asks for strings to become valid jit arguments.
Transcribed: as reported.
Hard: the string literal is passed positionally to a parameter that no static_argnums/static_argnames marks static; the checker must know str is neither an array, a scalar nor a pytree node.
"""
import jax
import numpy as np


@jax.jit
def print_yay(arr, msg):
    print(msg)
    print(arr)

print_yay(np.array([5, 3, 2, 2020]), "this is my message!")  # expect: jit-unsupported-argument
