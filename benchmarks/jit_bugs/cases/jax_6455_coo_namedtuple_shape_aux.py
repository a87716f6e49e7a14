"""Source: https://github.com/jax-ml/jax/issues/6455
Library: plain-jax
Correct: a COO sparse-matrix NamedTuple is registered as a pytree whose flatten returns the three index/value arrays as children and the shape as aux data, so the jitted matrix-vector product reads sparse_mat.shape[0] as a Python int (segment_sum needs it static); the shape is a tuple of ints, hashable and compared by value. A checker that trusted the field's Sequence[int] annotation (which admits a list) over the value actually stored would be wrong here.
Transcribed: the working code the reporter posted in the thread, with its imports; a 3x3 matrix built with shape=(3, 3), a vector and a call were added.
Hard: to stay silent, the checker must see that the aux data (A[3], the shape field annotated Sequence[int]) holds a tuple at the construction site.
"""
from typing import NamedTuple, Sequence, Union

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class COO(NamedTuple):
    """Defines a namedtuple for coordinate list sparse matrix (COO)."""

    rows: jnp.ndarray
    cols: jnp.ndarray
    vals: jnp.ndarray
    shape: Sequence[int]


def _coo_flatten(A):
    return A[:3], A[3]


def _coo_unflatten(aux_data, children):
    return COO(*children, aux_data)


register_pytree_node(COO, _coo_flatten, _coo_unflatten)

@jax.jit
def sparse_mat_vec_mul(sparse_mat: Union[COO, ], vec: jnp.ndarray):
    """Performs sparse matrix - dense vector multiplication"""
    prod = jnp.take(vec, sparse_mat.cols, axis=0) * sparse_mat.vals[:, None]
    return jax.ops.segment_sum(prod, sparse_mat.rows, sparse_mat.shape[0])


A = COO(jnp.array([0, 1, 2]), jnp.array([0, 2, 1]), jnp.array([1., 2., 3.]), (3, 3))
vec = jnp.ones((3, 1))
print(sparse_mat_vec_mul(A, vec))
print(sparse_mat_vec_mul(A, 2 * vec))
