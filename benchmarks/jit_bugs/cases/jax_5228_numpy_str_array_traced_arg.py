"""Source: https://github.com/jax-ml/jax/issues/5228
Library: plain-jax
Reported: a NumPy array of strings passed to a jitted identity function fails with an unhelpful "RuntimeError: Invalid argument: Unknown NumPy type U size 8" (jax 0.2.x); the issue asks for a better error for arrays whose dtype JAX does not support. Current jax raises "TypeError: Error interpreting argument to <function <lambda> ...> as an abstract array. The problematic value is of type <class 'numpy.ndarray'> ...".
Transcribed: the IPython session as a script.
Hard: the value is a numpy.ndarray, usually a valid jit argument; the checker must see that its dtype (<U2, from a list of str) is not one JAX supports.
"""
from jax import jit
import numpy as np

jit(lambda x: x)(np.array(['hi']))  # expect: jit-unsupported-argument
