"""Source: https://github.com/jax-ml/jax/pull/23860
Library: plain-jax
Reported: the pull request (fixing jax issue 23855) shows a one-argument @jax.jit function called with the string 'foo'; the call fails with "TypeError: Error interpreting argument to <function f ...> as an abstract array. The problematic value is of type <class 'str'> and was passed to the function at path x.", the message the PR adds to say that a non-array argument was not marked static.
Transcribed: the IPython session as a script.
Hard: the only parameter of the jitted function receives a str literal; nothing is static.
"""
import jax

@jax.jit
def f(x):
    return x

f('foo')  # expect: jit-unsupported-argument
