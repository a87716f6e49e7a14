"""Source: https://github.com/google-deepmind/torax/blob/3290fddf7409b4f397a761786d622378d189654a/docs/jax_classes.rst
Library: plain-jax
Reported: TORAX's design notes "Designing JAX-compatible classes": "if we were to use a traditional Python class as a static argument, this fails the immutability requirement, but there is no mutability test so no error is raised. Furthermore, Python supplies default implementations of `__hash__` and `__eq__` that are based on object identity ... so the objects continue to hash and compare the same despite having different values. The following code illustrates this failure ... The user presumably intends for this to print a 2 and then a 4, but it prints a 2 both times."
Transcribed: the document's snippet, unchanged.
Hard: `Vehicle` is a plain class with the default identity `__hash__`/`__eq__`, passed positionally in the position `static_argnums=0` names; the module assigns `x.num_wheels` between the two calls.
"""
import functools
import jax

@functools.partial(jax.jit, static_argnums=0)
def f(x):
  return x.num_wheels

class Vehicle:
  def __init__(self, num_wheels):
    self.num_wheels = num_wheels

x = Vehicle(2)
print(f(x))  # expect: static-identity-hash
x.num_wheels = 4
print(f(x))  # expect: static-identity-hash
