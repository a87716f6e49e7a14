"""Source: https://github.com/patrick-kidger/equinox/blob/55e07870620061a9dd6b47428dd6ce60b05106f9/equinox/nn/_weight_norm.py
Library: equinox
Correct: after PR #1240 (fixing issue #965), `WeightNorm.__init__` stores `_make_norm(axis)` in its `_norm` field; `_make_norm` is a module-level factory wrapped in `functools.cache`, so every instance with the same `axis` gets the same `functools.partial` object. The field is still a non-array leaf that `eqx.filter_jit` holds static, but equal constructions now give the identical callable and share one trace. A checker that flags every `ft.partial(...)` reaching a static leaf would be wrong here: the partial is built once per `axis`, not once per instance.
Transcribed: `_norm_except_axis`, `_make_norm` and `WeightNorm` (`__init__` and `__call__`, docstrings and `named_scope` cut) from the file above, and the PR's test `test_weight_norm_equality` as straight-line code.
"""
import functools as ft
from collections.abc import Callable
from typing import Generic, TypeVar

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jrandom
from jaxtyping import Array, PRNGKeyArray, Scalar

_Layer = TypeVar("_Layer")


def _norm_except_axis(v: Array, norm: Callable[[Array], Scalar], axis: int | None):
    if axis is None:
        return norm(v)
    else:
        return jax.vmap(norm, in_axes=axis, out_axes=axis)(v)


@ft.cache
def _make_norm(axis: int | None) -> Callable[[Array], Scalar]:
    # Cached so that two `WeightNorm`s with the same `axis` share the same callable,
    # and so compare equal under `eqx.tree_equal`.
    # https://github.com/patrick-kidger/equinox/issues/965
    return ft.partial(
        _norm_except_axis,
        norm=ft.partial(jnp.linalg.norm, keepdims=True),
        axis=axis,
    )


class WeightNorm(eqx.Module, Generic[_Layer]):
    layer: _Layer
    g: Array
    weight_name: str = eqx.field(static=True)
    axis: int | None = eqx.field(static=True)
    _norm: Callable[[Array], Scalar]

    def __init__(
        self,
        layer: _Layer,
        weight_name: str = "weight",
        axis: int | None = 0,
    ):
        self.layer = layer
        self.weight_name = weight_name
        self.axis = axis

        self._norm = _make_norm(axis)
        self.g = self._norm(getattr(layer, weight_name))

    def __call__(self, x: Array, *, key: PRNGKeyArray | None = None) -> Array:
        v = getattr(self.layer, self.weight_name)
        weight = v * self.g / self._norm(v)
        layer = eqx.tree_at(lambda l: getattr(l, self.weight_name), self.layer, weight)
        return layer(x)


linear = eqx.nn.Linear(4, 4, key=jrandom.key(0))

for axis in (0, None):
    m1 = WeightNorm(layer=linear, weight_name="weight", axis=axis)
    m2 = WeightNorm(layer=linear, weight_name="weight", axis=axis)
    assert eqx.tree_equal(m1, m2)

num_traces = 0


@eqx.filter_jit
def f(model, x):
    global num_traces
    num_traces += 1
    return model(x)


x = jrandom.normal(jrandom.key(1), (4,))
f(WeightNorm(layer=linear), x)
f(WeightNorm(layer=linear), x)
print("num_traces:", num_traces)
assert num_traces == 1
