"""Source: https://github.com/dynamiqs/dynamiqs/blob/48e842444b9a9c8e782471d612cb69f507a61a42/dynamiqs/sesolve/sesolve.py
Library: plain-jax
Correct: after commit 48e8424 ("Make options hashable for JIT") `sesolve` keeps `options` in `static_argnames` but declares it `Options = Options()`, an equinox Module whose fields are bools: equinox Modules are frozen dataclasses that hash and compare by their field values, so each freshly built `Options(save_states=False)` hits the code compiled for an equal one, and the default instance, built once when the function is defined, is shared by every call that omits it. Equally the default `Dopri5()` solver is a Module of floats and ints.
Transcribed: `sesolve`'s decorator and signature from dynamiqs/sesolve/sesolve.py at 48e8424 and `Options` from dynamiqs/options.py; `Solver`/`Dopri5` are cut to equinox Modules with `assert_supports_gradient`, `get_cdtype` to its default branch, `_astimearray` to `jnp.asarray`, and solver selection plus `solver.run()` are replaced by a matrix-exponential stand-in; a trace counter and calls with three equal `Options` built afresh were added.
"""
from __future__ import annotations

from functools import partial
import equinox as eqx
import jax
from jax import numpy as jnp
from jaxtyping import ArrayLike


traces = 0


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


@partial(jax.jit, static_argnames=('solver', 'gradient', 'options'))
def sesolve(
    H: ArrayLike,
    psi0: ArrayLike,
    tsave: ArrayLike,
    *,
    exp_ops: list[ArrayLike] | None = None,
    solver: Solver = Dopri5(),
    gradient: Gradient | None = None,
    options: Options = Options(),
):
    global traces
    traces += 1
    # === convert arguments
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
for _ in range(3):
    print(sesolve(H, psi0, tsave, options=Options(save_states=False)).shape)
print("traces:", traces)  # 2: one for the default options, one for the three equal Options(save_states=False)
