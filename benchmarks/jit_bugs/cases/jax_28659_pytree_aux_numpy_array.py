"""Source: https://github.com/jax-ml/jax/issues/28659
Library: plain-jax
Reported: a numpy array returned as aux data by a pytree class's tree_flatten makes the second jitted call fail, about half of the time, with 'The truth value of an array with more than one element is ambiguous'.
Transcribed: test_bug() is called at the end.
Hard: the field is static only because the hand-written tree_flatten returns it in the aux data.
Run: no (it fails or not from one run to the next, as the report says)
"""
import dataclasses

import jax
import jax.numpy as jnp
import jax.tree_util
import numpy as np


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class HasArray:
    x: object
    y: np.ndarray  # expect: static-dynamic-child
    # y: set

    def tree_flatten(self):
        return (self.x,), (self.y,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (x,) = children
        (y,) = aux_data
        return cls(x, y)


@jax.jit
def f(x: HasArray):
    return x.x + sum(x.y)


def test_bug():
    N = 2
    for n in range(N):
        f(
            HasArray(
                x=jnp.array([1] * n),
                y=np.array([1, 2, 3]),
                # y={1, 2, 3},
            )
        )

test_bug()
