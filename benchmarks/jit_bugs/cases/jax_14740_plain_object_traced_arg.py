"""Source: https://github.com/jax-ml/jax/issues/14740
Library: plain-jax
Reported: an instance of a plain class passed to a jitted function fails with 'Cannot interpret value of type <class '__main__.A'> as an abstract array; it does not have a dtype attribute', an error that does not say which argument is at fault.
Transcribed: as reported.
Hard: A is an empty plain class (not a registered pytree), made inline at the call.
"""
import jax
class A: pass
jax.jit(lambda x: x)(A())  # expect: jit-unsupported-argument
