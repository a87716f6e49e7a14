"""Source: https://github.com/jax-ml/jax/issues/24204
Library: flax
Reported: a jax.Array in a flax struct.field(pytree_node=False) fails with 'The truth value of an array with more than one element is ambiguous' when the jitted function is called again with a re-instantiated struct.
Transcribed: the stored copy of the report is cut off inside the loop; the loop body is completed as the report describes it (re-instantiate, call the jitted step).
Hard: the static marker is flax's struct.field(pytree_node=False).
"""
import jax
from flax import struct

@struct.dataclass
class Foo:
    # Error has to do with this field when set as static.
    bar: jax.Array = struct.field(pytree_node=False)  # If True, the error will not occur  # expect: static-dynamic-child

def step(_params):
    return _params

params = Foo(bar=jax.numpy.arange(4))
for i in range(2):
    print(f"i: {i}")  # Fails on second iteration

    # When we re-instantiate, but with a scalar, the error will not occur
    params = Foo(bar=jax.numpy.arange(4))
    jax.jit(step)(params)
