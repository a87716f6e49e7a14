"""Source: https://github.com/jax-ml/jax/issues/13914
Library: plain-jax
Reported: a @jax.jit function that picks its operation from a string argument (`op == 'add'`) fails when called as `f(1, 2, 'add')` with "TypeError: Argument 'add' of type <class 'str'> is not a valid JAX type."; the usual fix is `static_argnames=['op']`, and the issue asks whether str should be a trivial pytree so that strings become static by default.
Transcribed: the failing snippet only (the fixed variant with static_argnames and the proposed pytree registration are left out).
Hard: the string is the third positional argument of a plain @jax.jit function with no static arguments.
"""
import jax

@jax.jit
def f(x, y, op):
  return x + y if op == 'add' else x * y

f(1, 2, 'add')  # expect: jit-unsupported-argument
