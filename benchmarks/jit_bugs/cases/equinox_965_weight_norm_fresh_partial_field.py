"""Source: https://github.com/patrick-kidger/equinox/issues/965
Library: equinox
Reported: `eqx.tree_equal(eqx.nn.WeightNorm(layer), eqx.nn.WeightNorm(layer))` is False, because `WeightNorm.__init__` stores a fresh `functools.partial` in its `_norm` field and partials compare by identity. The fix (PR #1240, which closes the issue) adds that the same per-instance callable made `eqx.filter_jit` retrace once per `WeightNorm` instance, and adds a filter_jit single-trace test.
Transcribed: the report's snippet (with `jax.random` for the key, as the report's `equinox.random` does not exist), plus the single-trace check from PR #1240's test `test_weight_norm_equality`. `WeightNorm` is copied from equinox/nn/_weight_norm.py before PR #1240 (the installed equinox 0.13.8 still has this code), cut to `__init__` and `__call__` without the docstrings and `named_scope`, so that the line storing the fresh partial is in this file.
Hard: the fresh `ft.partial` is made inside `__init__` and stored in an undeclared (non-static) field typed `Callable`; filter_jit holds that non-array leaf static, so every new instance (two identical constructions here) is a cache miss. The checker must follow `WeightNorm(...)` arguments of a filter_jit call into the class's `__init__`.
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

        self._norm = ft.partial(  # expect: static-fresh-callable
            _norm_except_axis,
            norm=ft.partial(jnp.linalg.norm, keepdims=True),
            axis=axis,
        )
        self.g = self._norm(getattr(layer, weight_name))

    def __call__(self, x: Array, *, key: PRNGKeyArray | None = None) -> Array:
        v = getattr(self.layer, self.weight_name)
        weight = v * self.g / self._norm(v)
        layer = eqx.tree_at(lambda l: getattr(l, self.weight_name), self.layer, weight)
        return layer(x)


# The report.
layer = eqx.nn.Linear(2, 2, key=jrandom.key(0))
m1 = WeightNorm(layer)
m2 = WeightNorm(layer)
print("tree_equal:", eqx.tree_equal(m1, m2))  # unequal

# PR #1240's filter_jit check.
linear = eqx.nn.Linear(4, 4, key=jrandom.key(1))
num_traces = 0


@eqx.filter_jit
def f(model, x):
    global num_traces
    num_traces += 1
    return model(x)


x = jrandom.normal(jrandom.key(2), (4,))
f(WeightNorm(layer=linear), x)
f(WeightNorm(layer=linear), x)
print("num_traces:", num_traces)  # 2; the PR's test asserts 1
