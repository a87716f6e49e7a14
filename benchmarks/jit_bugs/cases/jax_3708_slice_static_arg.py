"""Source: https://github.com/jax-ml/jax/issues/3708
Library: plain-jax
Reported: a slice passed in a static position is hashed by identity (slices are unhashable before Python 3.12), so every equal slice recompiles.
Hard: slice is unhashable only before Python 3.12; typeshed says so for those versions.
"""
import functools

import jax

@functools.partial(jax.jit, static_argnums=1)
def foo(arr, s):
  return arr[s]

a = jax.numpy.array([1, 2, 3])
foo(a, slice(1, 2))  # expect: static-unhashable

# foo will be compiled twice
foo(a, slice(1, 2))  # expect: static-unhashable
foo(a, slice(1, 2))  # expect: static-unhashable
