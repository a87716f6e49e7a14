"""Source: https://github.com/dynamiqs/dynamiqs/commit/405a9bc045434deae6ce7def1d93d14b78e4d6a9
Library: equinox
Reported: commit "Fix bug with static fields" removes `eqx.field(static=True)` from `PWCTimeArray.array` (and `ModulatedTimeArray.array`), whose comment read "`array` is made a static field such that `vmap` knows to not batch over it. However, this also implies that the function is re-jitted every time `array` changes. TODO: find a better way to handle this." The field holds the (n, n) operator, a JAX array, so it lands in the pytree's static metadata, which jit compares with == when a second time array with another operator is passed.
Transcribed: `PWCTimeArray` from dynamiqs/time_array.py at 405a9bc^, cut to its fields, `dtype`, `shape` and `__call__` (the other methods and the `TimeArray` base's abstract interface are left out, the base is a plain `eqx.Module` subclass); a jitted evaluation of two piecewise-constant Hamiltonians with different operators (sigma_x, then sigma_z), as `sesolve` jits over its `H` argument, was added.
Hard: the static marker is equinox's `eqx.field(static=True)` and the field is declared `Array`.
"""
from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax import Array, lax


class TimeArray(eqx.Module):
    pass


class PWCTimeArray(TimeArray):
    # `array`` is made a static field such that `vmap` knows to not batch over it.
    # However, this also implies that the function is re-jitted every time `array`
    # changes. TODO: find a better way to handle this.
    times: Array  # (nv+1,)
    values: Array  # (..., nv)
    array: Array = eqx.field(static=True)  # (n, n)  # expect: static-dynamic-child

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return (*self.values.shape[:-1], *self.array.shape)

    def __call__(self, t: float) -> Array:
        def _zero(_: float) -> Array:
            return jnp.zeros_like(self.values[..., 0])  # (...)

        def _pwc(t: float) -> Array:
            idx = jnp.searchsorted(self.times, t, side='right') - 1
            return self.values[..., idx]  # (...)

        value = lax.cond(
            jnp.logical_or(t < self.times[0], t >= self.times[-1]), _zero, _pwc, t
        )

        return value.reshape(*value.shape, 1, 1) * self.array


@jax.jit
def evaluate(H: TimeArray, t: float) -> Array:
    return H(t)


times = jnp.array([0.0, 1.0, 2.0])
values = jnp.array([1.0, 2.0])
sigmax = jnp.array([[0.0, 1.0], [1.0, 0.0]])
sigmaz = jnp.array([[1.0, 0.0], [0.0, -1.0]])
print(evaluate(PWCTimeArray(times, values, sigmax), 0.5))
print(evaluate(PWCTimeArray(times, values, sigmaz), 0.5))
