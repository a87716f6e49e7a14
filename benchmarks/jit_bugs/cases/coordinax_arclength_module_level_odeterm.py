"""Source: https://github.com/GalacticDynamics/coordinax/blob/d0d13f0be521a22748c2876f5a796acec9acd89e/packages/coordinaxs.curveframes/src/coordinaxs/curveframes/_src/arclength.py
Library: equinox
Correct: after PR #721 the ODE term is built once at import (`_TERM_DTAU = dfx.ODETerm(_rhs_dtau)`, with `_rhs_dtau` a module-level function), and everything that varies per call rides in through diffrax's `args`: the curve (a module-level function here), the float `s`, and two unit objects. The filter-jitted `diffeqsolve` still holds the function and the units static, but they are the same (or equal, hashable) objects on every call, so `_solve_tau` compiles once for any `s`. A checker must not flag a module-level term constant, nor a module-level function passed inside `args`.
Transcribed: `_DIFFEQSOLVER`, `_speed`, `_rhs_dtau`, `_TERM_DTAU` and `_solve_tau` from the file above (docstrings shortened), with the same helix, trace counter and three calls as the buggy case coordinax_721_arclength_fresh_odeterm_closure.py.
Run: no (needs diffrax, diffraxtra and unxt, not installed in the benchmark environment; checked with diffrax 0.7.2, diffraxtra 1.6.0, unxt 1.11.4: traced once for the three calls)
"""
from collections.abc import Callable
from typing import Any

import diffrax as dfx
import jax.numpy as jnp
from diffraxtra import DiffEqSolver

import unxt as u

_DIFFEQSOLVER = DiffEqSolver(
    solver=dfx.Tsit5(),
    stepsize_controller=dfx.PIDController(rtol=1e-10, atol=1e-10),
    adjoint=dfx.DirectAdjoint(),
    max_steps=16384,
)

traces = 0


def _speed(
    curve: Callable[[Any], Any],
    tau_unit: u.AbstractUnit,
    s_unit: u.AbstractUnit,
    tau_q: u.AbstractQuantity,
    /,
) -> Any:
    r"""Local speed $\|\boldsymbol{\gamma}'(\tau)\|$ of ``curve`` at ``tau_q``."""
    global traces
    traces += 1
    dcurve = u.experimental.jacfwd(curve, units=(tau_unit,))
    return jnp.linalg.norm(dcurve(tau_q).ustrip(s_unit / tau_unit))


def _rhs_dtau(x: Any, tau_flat: Any, args: Any) -> Any:
    r"""$d\tau/dx = \text{scale}/\|\gamma'(\tau)\|$."""
    del x
    curve, scale, tau_unit, s_unit = args
    return scale / _speed(curve, tau_unit, s_unit, u.Q(tau_flat, tau_unit))


#: The ODE terms, built **once** at import. Everything that varies per call
#: rides in through `diffrax`'s ``args`` instead of a closure.
_TERM_DTAU = dfx.ODETerm(_rhs_dtau)


def _solve_tau(
    curve: Callable[[Any], Any],
    tau_unit: u.AbstractUnit,
    tau_0: u.AbstractQuantity,
    diffeqsolver: DiffEqSolver,
    s: u.AbstractQuantity,
    /,
) -> u.AbstractQuantity:
    r"""Solve $d\tau/ds = 1/\|\text{curve}'(\tau)\|$ from $\tau_0$ to arc length ``s``."""
    s_unit = s.unit
    args = (curve, s.ustrip(s_unit), tau_unit, s_unit)
    sol = diffeqsolver(_TERM_DTAU, 0.0, 1.0, None, tau_0.ustrip(tau_unit), args)
    return u.Q(sol.ys[-1], tau_unit)


def helix(tau):
    t = tau.ustrip("s")
    return u.Q(jnp.stack([jnp.cos(t), jnp.sin(t), t]), "m")


for s in (0.5, 2.0, 4.0):
    before = traces
    tau = _solve_tau(helix, u.unit("s"), u.Q(0.0, "s"), _DIFFEQSOLVER, u.Q(s, "m"))
    print(f"s={s}: tau={float(tau.ustrip('s')):.6f}, retraced={traces > before}")
