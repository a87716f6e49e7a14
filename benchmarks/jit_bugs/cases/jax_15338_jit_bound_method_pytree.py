"""Source: https://github.com/jax-ml/jax/issues/15338
Library: plain-jax
Reported: jitting a bound method of a registered pytree recompiles on every iteration, while jitting a module-level function that calls it compiles once.
Hard: the instance's class is a registered pytree, which the plugin trusts in jax.jit(obj.method).
"""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

@register_pytree_node_class
class A:
    def do(self, key, shape):
        print('A.do()')
        return jax.random.uniform(key, shape)

    def tree_flatten(self):
        return (), {}

    @classmethod
    def tree_unflatten(cls, treedef, leaves):
        return cls(*leaves, **treedef)

def do(obj, key, shape):
    print('do()')
    return obj.do(key, shape)

a = A()  # ([], PyTreeDef(CustomNode(A[{}], [])))
key = jax.random.PRNGKey(42)

print('function')
for _ in range(3):
    key, subkey = jax.random.split(key)
    jax.jit(do, static_argnums=2)(a, subkey, (2, 3, 4))

print('bounded method')
for _ in range(3):
    key, subkey = jax.random.split(key)
    jax.jit(a.do, static_argnums=1)(subkey, (2, 3, 4))  # expect: jit-bound-method
