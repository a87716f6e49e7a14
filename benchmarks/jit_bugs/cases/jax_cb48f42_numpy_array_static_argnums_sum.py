"""Source: https://github.com/jax-ml/jax/commit/cb48f42372367141db567ec8b72f741a7fadab2e
Library: plain-jax
Reported: the commit that made jax.jit raise on non-hashable static arguments gives this as its motivating example: a NumPy array passed in a static position was hashed by id and compared with `is`, so the second call, with an equal but new array, recompiled; from this commit on the call fails with "Non-hashable static arguments are not supported".
Transcribed: the example from the commit message, with `import jax`, `import numpy as np` and `from functools import partial` added and the two calls' missing closing parentheses restored. Observed (jax 0.10.2): the first call raises ValueError "Non-hashable static arguments are not supported ... unhashable type: 'numpy.ndarray'".
Hard: the parameter b is unannotated; the array reaches the static position as a call argument written inline.
"""
from functools import partial

import jax
import numpy as np


@partial(jax.jit, static_argnums=(1,))
def sum(a, b):
  return a+ b
sum(np.asarray([1,2,3]), np.asarray([4,5,6]))  # expect: static-dynamic-child
# The next line will recompile, because the 1-indexed argument is non
# hashable and thus compared by identity with different instances
sum(np.asarray([1,2,3]), np.asarray([4,5,6]))  # expect: static-dynamic-child
