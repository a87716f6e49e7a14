"""Source: https://github.com/patrick-kidger/lineax/pull/41
Library: equinox
Correct: lineax issue 34 asked for `MatrixLinearOperator.tags` to be `eqx.field(static=True)` because "TypeError: Value frozenset() with type <class 'frozenset'> is not a valid JAX type" is raised when an operator is built under `jax.jit` and crosses the jit boundary; the pull request (commit d48e03f) marks `tags: frozenset[object] = eqx.static_field()`. The value is always `_frozenset(tags)`: a frozenset (hashable, immutable) of tag objects that are module-level singletons (`symmetric_tag = _HasRepr("symmetric_tag")`, compared by identity on purpose, never rebuilt, never changed). Two operators with the same tags have equal static parts, so jit compiles once for both; the field is never changed in place. A checker that reports an identity-hashed class inside a static field, or a `frozenset[object]` of unknown elements, would be wrong here.
Transcribed: `_HasRepr`, `symmetric_tag`, `positive_semidefinite_tag` and `transpose_tags` (with its rule list reduced to the two tags used) from lineax/_tags.py, and `_frozenset` and `MatrixLinearOperator` from lineax/_operator.py at d48e03f; `MatrixLinearOperator` subclasses `eqx.Module` instead of lineax's `AbstractLinearOperator` (whose other abstract methods are not needed) and keeps `__init__`, `mv`, `as_matrix`, `transpose`, `in_structure` and `out_structure`; `eqx.static_field()` (deprecated) is written `eqx.field(static=True)`, as lineax itself renamed it later (commit 4e8a44a) and as the issue proposed. Added a driver after the issue: operators built and returned by a `jax.jit` function, then applied by another jitted function to two operators with equal tags, with a trace counter.
"""
from typing import Iterable, Union

import equinox as eqx
import jax
import jax.lax as lax
import jax.numpy as jnp
from jaxtyping import Array, Float, Shaped


class _HasRepr:
    def __init__(self, string: str):
        self.string = string

    def __repr__(self):
        return self.string


symmetric_tag = _HasRepr("symmetric_tag")
positive_semidefinite_tag = _HasRepr("positive_semidefinite_tag")


transpose_tags_rules = []


for tag in (
    symmetric_tag,
    positive_semidefinite_tag,
):

    @transpose_tags_rules.append
    def _(tags: frozenset[object], tag=tag):
        if tag in tags:
            return tag


def transpose_tags(tags: frozenset[object]):
    """Returns the tags of the transpose of an operator with `tags`."""
    if symmetric_tag in tags:
        return tags
    new_tags = []
    for rule in transpose_tags_rules:
        out = rule(tags)
        if out is not None:
            new_tags.append(out)
    return frozenset(new_tags)


def _frozenset(x: Union[object, Iterable[object]]) -> frozenset[object]:
    try:
        iter_x = iter(x)  # pyright: ignore
    except TypeError:
        return frozenset([x])
    else:
        return frozenset(iter_x)


class MatrixLinearOperator(eqx.Module):
    """Wraps a 2-dimensional JAX array into a linear operator."""

    matrix: Float[Array, "a b"]
    tags: frozenset[object] = eqx.field(static=True)

    def __init__(
        self, matrix: Shaped[Array, "a b"], tags: Union[object, frozenset[object]] = ()
    ):
        if jnp.ndim(matrix) != 2:
            raise ValueError(
                "`MatrixLinearOperator(matrix=...)` should be 2-dimensional."
            )
        if not jnp.issubdtype(matrix, jnp.inexact):
            matrix = matrix.astype(jnp.float32)
        self.matrix = matrix
        self.tags = _frozenset(tags)

    def mv(self, vector):
        return jnp.matmul(self.matrix, vector, precision=lax.Precision.HIGHEST)

    def as_matrix(self):
        return self.matrix

    def transpose(self):
        if symmetric_tag in self.tags:
            return self
        return MatrixLinearOperator(self.matrix.T, transpose_tags(self.tags))

    def in_structure(self):
        _, in_size = jnp.shape(self.matrix)
        return jax.ShapeDtypeStruct(shape=(in_size,), dtype=self.matrix.dtype)

    def out_structure(self):
        out_size, _ = jnp.shape(self.matrix)
        return jax.ShapeDtypeStruct(shape=(out_size,), dtype=self.matrix.dtype)


traces = 0


@jax.jit
def make_operator(matrix):
    return MatrixLinearOperator(matrix @ matrix.T, (symmetric_tag, positive_semidefinite_tag))


@jax.jit
def apply(operator, vector):
    global traces
    traces += 1
    return operator.transpose().mv(vector)


v = jnp.ones(3)
for scale in (1.0, 2.0, 3.0):
    operator = make_operator(scale * jnp.eye(3))
    print(apply(operator, v))
print("apply traced", traces, "time(s)")
assert traces == 1
