"""Source: https://github.com/jax-ml/jax/issues/15817
Library: plain-jax
Correct: the empty dict the flatten function returns as aux data is no static-value bug: it is made afresh by every flatten, so nothing changes it after jit compiled for it, and jit compares it without hashing it (measured: the jitted calls and hash() of the treedef work). What the report is about, a method jitted on a pytree class assigns self.x inside the jitted body, and the change is lost: a.x is unchanged after the call, is outside the static rules; a checker that reported the dict would be wrong about harmless code.
Transcribed: as reported.
"""
import jax
import jax.numpy as jnp
import numpy as np


class A:
    def __init__(self, x: jnp.ndarray):
        self.x = x

    def _tree_flatten(self):
        dynamic = (self.x, )
        static = {}
        return dynamic, static

    @classmethod
    def _tree_unflatten(cls, static, dynamic):
        return cls(*dynamic)

    @jax.jit   # if there is not jit here then everything is good
    def set_subsystem(self, index, sub: "A"):
        self.x = self.x.at[index].set(sub.x)


jax.tree_util.register_pytree_node(A,
                                   A._tree_flatten,
                                   A._tree_unflatten)


nall = 3
nsub = 2
x = jnp.array(np.random.random((nall, )))
x2 = jnp.array(np.random.random((nsub, )))

a = A(x)
a2 = A(x2)

print(a2.x)
print(a.x)
a.set_subsystem(jnp.arange(nsub), a2)
print(a.x)
