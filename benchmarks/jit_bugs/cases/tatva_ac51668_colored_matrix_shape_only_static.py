"""Source: https://github.com/smec-ethz/tatva/blob/ac51668bc4c0b480f32f73acac0f4aff04758e92/tatva/sparse/base.py
Library: jax-dataclass-registration
Correct: after the fix of tatva issue 33 (commit ac51668, "make ColoredMatrix compatible with JAX>0.9.0"), `ColoredMatrix` keeps one static field, `shape: tuple[int, int] = field(metadata=dict(static=True))`, a tuple of ints that hashes and compares by value; `indptr`, `indices` and `colors` are data fields holding jax arrays. Sparsity patterns built anew for every solve reuse one compilation.
Transcribed: `ColoredMatrix` (fields, `from_csr`, `to_bcoo`, `to_dense`) from tatva/sparse/base.py at ac51668; scipy's `csr_matrix` replaced by a minimal stand-in and `tatva_coloring.distance2_colors` by a greedy distance-2 colouring in numpy. The driver (a 1-D Laplacian's pattern built and coloured three times, a jitted matrix-vector product of each) is added.
"""
from dataclasses import dataclass, field

import jax
import jax.experimental.sparse as jsp
import jax.numpy as jnp
import numpy as np
from jax import Array
from jax.tree_util import register_dataclass


class csr_matrix:
    def __init__(self, data, indices, indptr, shape):
        self.data = data
        self.indices = indices
        self.indptr = indptr
        self.shape = shape


def distance2_colors(indptr, indices, n):
    colors = -np.ones(n, dtype=np.int32)
    for i in range(n):
        forbidden = set()
        for j in indices[indptr[i]:indptr[i + 1]]:
            for k in indices[indptr[j]:indptr[j + 1]]:
                if colors[k] >= 0:
                    forbidden.add(int(colors[k]))
        c = 0
        while c in forbidden:
            c += 1
        colors[i] = c
    return colors


@register_dataclass
@dataclass(frozen=True)
class ColoredMatrix:
    """Class to represent the sparsity pattern of a matrix, including the row pointers,
    column indices, and colors for graph coloring.
    """

    data: Array = field(repr=False)
    """Data values of the sparse matrix"""

    indptr: Array = field(repr=False)
    """Row pointers for the original sparsity pattern (CSR format)"""

    indices: Array = field(repr=False)
    """Column indices for the original sparsity pattern (CSR format)"""

    shape: tuple[int, int] = field(metadata=dict(static=True))
    """Shape of the sparse matrix"""

    colors: Array = field(repr=False)
    """Colors assigned to each degree of freedom (DOF) for graph coloring"""

    @classmethod
    def from_csr(cls, csr_matrix, colors=None):
        """Create a SparseMatrix instance from a SciPy CSR matrix and optional colors."""
        indptr = csr_matrix.indptr
        indices = csr_matrix.indices

        if colors is None:
            colors = distance2_colors(indptr, indices, csr_matrix.shape[0])

        return cls(
            data=jnp.asarray(csr_matrix.data),
            indptr=jnp.asarray(indptr),
            indices=jnp.asarray(indices),
            shape=csr_matrix.shape,
            colors=jnp.asarray(colors),
        )

    def to_bcoo(self) -> jsp.BCOO:
        """Convert the sparse matrix to JAX's BCOO format."""
        # expand row pointers to get row indices for every non-zero
        n_dofs = self.shape[0]
        diffs = jnp.diff(self.indptr)
        rows = jnp.repeat(
            jnp.arange(n_dofs), diffs, total_repeat_length=self.indices.shape[0]
        )
        indices = jnp.stack([rows, self.indices], axis=1)

        return jsp.BCOO((self.data, indices), shape=(n_dofs, n_dofs))

    def to_dense(self) -> Array:
        """Convert the sparse matrix to a dense array."""
        bcoo = self.to_bcoo()
        return bcoo.todense()


def laplacian_csr(n):
    indptr, indices, data = [0], [], []
    for i in range(n):
        for j, v in ((i - 1, -1.0), (i, 2.0), (i + 1, -1.0)):
            if 0 <= j < n:
                indices.append(j)
                data.append(v)
        indptr.append(len(indices))
    return csr_matrix(np.array(data), np.array(indices), np.array(indptr), (n, n))


@jax.jit
def matvec(K, u):
    return K.to_bcoo() @ u


TRACES = [0]


@jax.jit
def counted_matvec(K, u):
    TRACES[0] += 1
    return K.to_bcoo() @ u


u = jnp.ones(6)
for solve in range(3):
    K = ColoredMatrix.from_csr(laplacian_csr(6))
    print(solve, matvec(K, u), counted_matvec(K, u).shape)
print("traces:", TRACES[0])  # 1
