"""Source: https://github.com/jax-ml/jax/issues/9024
Library: plain-jax
Reported: a custom pytree passed as a static argument is hashed by identity, so after its data changes the jitted function returns the old result.
"""
import jax.numpy as jnp
from jax import jit
from jax.tree_util import register_pytree_node

class MyClass:
  def __init__(self, data):
    self.data = data

register_pytree_node(MyClass,
  lambda v: ((v.data,), None),
  lambda _, data: MyClass(*data))

m = MyClass(jnp.arange(4))

get_data = lambda x: x.data
jit_get_data = jit(get_data, static_argnums=0)

print(get_data(m))
# [0 1 2 3]
print(jit_get_data(m))  # expect: static-identity-hash
# [0 1 2 3]

m.data += 1
print(get_data(m))
# [1 2 3 4]
print(jit_get_data(m))  # <-- does not trigger a cache miss in the JIT, despite different data!  # expect: static-identity-hash
# [0 1 2 3]
