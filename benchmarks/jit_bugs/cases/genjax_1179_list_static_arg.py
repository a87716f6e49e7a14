"""Source: https://github.com/genjax-community/genjax/issues/1179
Library: plain-jax
Reported: a list passed in a static position fails with 'Non-hashable static arguments are not supported'.
Transcribed: the reporter's second snippet, which shows the failure without genjax.
"""
import jax
def foo(x):
  return x[0] + 1
jfoo = jax.jit(foo, static_argnums=(0,))
jfoo([2]) # ValueError: Non-hashable static arguments are not supported. An error occurred while trying to hash an object of type <class 'list'>, [3].  # expect: static-unhashable
