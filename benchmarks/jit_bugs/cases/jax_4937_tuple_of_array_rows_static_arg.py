"""Source: https://github.com/jax-ml/jax/issues/4937
Library: plain-jax
Reported: to make an array a static argument, the reporter turns it into a tuple of tuples (static_tuple = tuple([tuple(si) for si in static_arg])) and passes that in the static position of a jitted wrapper; they expected a speed-up and saw none. The tuple's elements are not Python floats but 0-d jax arrays (iterating a jax array yields arrays), so the tuple is no hashable value: the JAX of the time fell back to hashing it by identity with a warning, and current JAX refuses it ('Non-hashable static arguments are not supported').
Transcribed: the report's definitions; the stored copy of the report is cut off after `static_tuple = ...` (at `dy`), so the timing part is completed as the report describes it: a dynamic argument b and two timed calls of static_jac_jitted with the same static tuple.
Hard: the static value is a tuple, which is hashable in general; only its elements, made by iterating a jax array, are arrays.
"""
from jax import jit, jacobian
from jax import numpy as jnp
import time


def func(a, b):
    return jnp.einsum('ij->i', a)*b


jitted_jac = jit(jacobian(jit(func)))


def static_jac(a_tuple, b):
    a_arr = jnp.array(a_tuple)
    return jitted_jac(a_arr, b)


static_jac_jitted = jit(static_jac, static_argnums=(0,))

static_arg = jnp.ones((1, 10000))
static_tuple = tuple([tuple(si) for si in static_arg])
dynamic_arg = 2.0

for _ in range(2):
    t = time.time()
    static_jac_jitted(static_tuple, dynamic_arg).block_until_ready()  # expect: static-dynamic-child
    print(time.time() - t)
