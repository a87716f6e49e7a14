"""Source: https://github.com/smec-ethz/tatva/issues/33
Library: jax-dataclass-registration
Reported: "ColoredMatrix pytree metadata uses numpy arrays, breaking JIT cache on JAX 0.9+": `ValueError: Exception raised while checking equality of metadata fields of pytree. Make sure that metadata fields are hashable and have simple equality semantics. (Note: arrays cannot be passed as metadata fields!)`. `ColoredMatrix` is a `@register_dataclass` frozen dataclass whose `indptr`, `indices` and `colors` (numpy arrays of the sparsity pattern and its graph colouring) are declared `field(metadata=dict(static=True))`, so they are pytree metadata; the fix (commit ac51668, "make ColoredMatrix compatible with JAX>0.9.0") makes the three ordinary data fields and keeps only `shape` static.
Transcribed: `ColoredMatrix` (its fields, `from_csr`, `to_bcoo`, `to_dense`) from tatva/sparse/base.py at ac51668^; scipy's `csr_matrix` is replaced by a minimal stand-in holding `indptr`, `indices`, `data` and `shape`, and `tatva_coloring.distance2_colors` by a greedy distance-2 colouring in numpy (it returns a fresh array, as the real one does). The driver is added: the sparsity pattern of a 1-D Laplacian is built and coloured twice (as two solves of the same problem would), and a jitted matrix-vector product takes each `ColoredMatrix`.
Hard: the fields are static only because `jax.tree_util.register_dataclass` reads `metadata=dict(static=True)` from each `dataclasses.field`; they are declared `NDArray` (numpy's typing alias), and the arrays are made in a classmethod from a helper's return value.
"""
from dataclasses import dataclass, field

import jax
import jax.experimental.sparse as jsp
import jax.numpy as jnp
import numpy as np
from jax import Array
from jax.tree_util import register_dataclass
from numpy.typing import NDArray


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

    indptr: NDArray = field(metadata=dict(static=True), repr=False)  # expect: static-dynamic-child
    """Row pointers for the original sparsity pattern (CSR format)"""

    indices: NDArray = field(metadata=dict(static=True), repr=False)  # expect: static-dynamic-child
    """Column indices for the original sparsity pattern (CSR format)"""

    shape: tuple[int, int] = field(metadata=dict(static=True))
    """Shape of the sparse matrix"""

    colors: NDArray = field(metadata=dict(static=True), repr=False)  # expect: static-dynamic-child
    """Array of colors assigned to each degree of freedom (DOF) for graph coloring"""

    @classmethod
    def from_csr(cls, csr_matrix, colors=None):
        """Create a SparseMatrix instance from a SciPy CSR matrix and optional colors."""
        indptr = csr_matrix.indptr
        indices = csr_matrix.indices

        if colors is None:
            # If no colors are provided, compute them using distance-2 coloring
            colors = distance2_colors(indptr, indices, csr_matrix.shape[0])

        return cls(
            data=jnp.asarray(csr_matrix.data),
            indptr=indptr,
            indices=indices,
            shape=csr_matrix.shape,
            colors=colors,
        )

    def to_bcoo(self) -> jsp.BCOO:
        """Convert the sparse matrix to JAX's BCOO format."""
        # expand row pointers to get row indices for every non-zero
        n_dofs = self.shape[0]
        diffs = jnp.diff(self.indptr)
        rows = jnp.repeat(
            jnp.arange(n_dofs), diffs, total_repeat_length=len(self.indices)
        )
        cols = self.indices
        indices = jnp.stack([rows, cols], axis=1)

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


u = jnp.ones(6)
for solve in range(2):
    K = ColoredMatrix.from_csr(laplacian_csr(6))
    try:
        print(solve, matvec(K, u))
    except ValueError as e:
        print("BUG:", str(e).splitlines()[0])
