"""Source: https://github.com/jax-ml/jax/issues/7826
Library: flax
Reported: a numpy array in a flax struct field(pytree_node=False) passes the first jitted call; the second call fails with 'The truth value of an array with more than one element is ambiguous'.
Hard: the static marker is flax's struct.field(pytree_node=False).
"""
from jax import jit
from flax.struct import dataclass, field
import numpy as np

@dataclass
class Model():
    c: np.ndarray = field(pytree_node=False)  # expect: static-dynamic-child

@jit
def f(model):
    return 1.0

m = Model(np.ones(10))
n = Model(np.ones(10))

f(m)
f(n)
