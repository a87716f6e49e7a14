"""Source: https://github.com/jax-ml/jax/issues/17197
Library: plain-jax
Reported: jax.jit of a callable dataclass instance fails with 'unhashable type', while the same with a plain class works (and captures the instance).
Hard: the jitted callable is an instance, not a bound method written obj.method.
"""
from dataclasses import dataclass
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


@dataclass
class A:
    val: jnp.ndarray

    def __call__(self, x):
        return self.val * x


class B:
    def __init__(self, val: jnp.ndarray):
        self.val = val

    def __call__(self, x):
        return self.val * x


def flatten(obj):
    return (obj.val, None)


def unflatten_a(aux_data, children):
    return A(*children)


def unflatten_b(aux_data, children):
    return B(*children)


register_pytree_node(A, flatten, unflatten_a)
register_pytree_node(B, flatten, unflatten_b)

b = B(jnp.zeros(10))
fast_call_b = jax.jit(b)
fast_call_b(1.0)

a = A(jnp.zeros(10))
fast_call_a = jax.jit(a)  # expect: static-not-frozen
fast_call_a(1.0)
