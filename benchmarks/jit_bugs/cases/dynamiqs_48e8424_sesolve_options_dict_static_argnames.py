"""Source: https://github.com/dynamiqs/dynamiqs/commit/48e842444b9a9c8e782471d612cb69f507a61a42
Library: plain-jax
Reported: commit "Make options hashable for JIT" ("This is required because options is a static arg of the JIT."): `sesolve` was jitted with `static_argnames=('solver', 'gradient', 'options')` while `options` was declared `dict[str, Any] | None` and converted to an `Options` module inside the function, so a caller passing options as the dict the signature asks for (the tests did, e.g. `options={'save_states': False}`) hits 'Non-hashable static arguments are not supported'. The commit makes the parameter an `Options` (an equinox Module of bools, hashed by value).
Transcribed: `sesolve`'s decorator, signature and option conversion from dynamiqs/sesolve/sesolve.py at 48e8424^, and `Options` from dynamiqs/options.py there; `Solver`/`Dopri5` are cut to equinox Modules with `assert_supports_gradient`, `get_cdtype` to its default branch, `_astimearray` to `jnp.asarray`, and solver selection plus `solver.run()` are replaced by a matrix-exponential stand-in; a call with the dict option was added.
Hard: the static parameter is declared `dict[str, Any] | None`; the dict reaches it as a keyword argument named in `static_argnames`.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import equinox as eqx
import jax
from jax import numpy as jnp
from jaxtyping import ArrayLike


def get_cdtype(dtype=None):
    if dtype is None:
        return jnp.complex128 if jax.config.jax_enable_x64 else jnp.complex64
    return dtype


class Gradient(eqx.Module):
    pass


class Solver(eqx.Module):
    @classmethod
    def assert_supports_gradient(cls, gradient: Gradient | None) -> None:
        if gradient is not None:
            raise ValueError(f'Solver `{cls.__name__}` does not support gradient.')


class Dopri5(Solver):
    rtol: float = 1e-6
    atol: float = 1e-6
    max_steps: int = 100_000


class Options(eqx.Module):
    save_states: bool
    verbose: bool
    _double_precision: bool
    cartesian_batching: bool

    def __init__(
        self,
        *,
        save_states: bool = True,
        verbose: bool = True,
        dtype: jnp.complex64 | jnp.complex128 | None = None,
        cartesian_batching: bool = True,
    ):
        self.save_states = save_states
        self.verbose = verbose
        cdtype = get_cdtype(dtype)
        self._double_precision = cdtype == jnp.complex128
        self.cartesian_batching = cartesian_batching

    @property
    def rdtype(self) -> jnp.float32 | jnp.float64:
        return jnp.float64 if self._double_precision else jnp.float32

    @property
    def cdtype(self) -> jnp.complex64 | jnp.complex128:
        return jnp.complex128 if self._double_precision else jnp.complex64


@partial(jax.jit, static_argnames=('solver', 'gradient', 'options'))  # expect: static-unhashable
def sesolve(
    H: ArrayLike,
    psi0: ArrayLike,
    tsave: ArrayLike,
    *,
    exp_ops: list[ArrayLike] | None = None,
    solver: Solver = Dopri5(),
    gradient: Gradient | None = None,
    options: dict[str, Any] | None = None,
):
    # === convert arguments
    options = {} if options is None else options
    options = Options(**options)

    H = jnp.asarray(H, dtype=options.cdtype)
    y0 = jnp.asarray(psi0, dtype=options.cdtype)
    ts = jnp.asarray(tsave, dtype=options.rdtype)

    # === check gradient is supported
    solver.assert_supports_gradient(gradient)

    # === run solver (stand-in)
    states = jax.vmap(lambda t: jax.scipy.linalg.expm(-1j * t * H) @ y0)(ts)
    return states if options.save_states else states[-1]


H = jnp.array([[0.0, 1.0], [1.0, 0.0]])
psi0 = jnp.array([[1.0], [0.0]])
tsave = jnp.linspace(0.0, 1.0, 5)
print(sesolve(H, psi0, tsave).shape)
print(sesolve(H, psi0, tsave, options={'save_states': False}).shape)  # expect: static-unhashable
