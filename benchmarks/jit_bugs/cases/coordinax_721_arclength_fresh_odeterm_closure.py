"""Source: https://github.com/GalacticDynamics/coordinax/pull/721
Library: equinox
Reported: "the three solves built a fresh `ODETerm` closure per call. `diffrax.diffeqsolve` is filter-jitted with the term in the static half of its cache key, and a closure hashes by identity, so every call missed the cache and recompiled the whole integrator" (PR #721, commit 59a45224, "hoist the ODE terms out of the per-call closures"): about 390 ms per call against 0.3 ms of integration. The fix made the terms module-level constants and passed the per-call data through diffrax's `args`.
Transcribed: `_DIFFEQSOLVER`, `_speed` and `_solve_tau` from packages/coordinaxs.curveframes/src/coordinaxs/curveframes/_src/arclength.py at 59a45224^ (docstrings shortened); the other two solves (`_solve_tau_dense`, `_arclength_between`) have the same defect and are left out. Added a helix curve (the commit measured on a helix), a trace counter in `_speed`, and three calls with different `s`.
Run: no (needs diffrax, diffraxtra and unxt, not installed in the benchmark environment; checked with diffrax 0.7.2, diffraxtra 1.6.0, unxt 1.11.4: `_speed` is traced anew on each of the three calls)
Hard: `ode_rhs` is a nested def closing over `s_val`, `tau_unit`, `curve`, made afresh on every `_solve_tau` call, wrapped in `dfx.ODETerm` and passed to a `diffraxtra.DiffEqSolver` instance, whose `__call__` forwards to the filter_jit-wrapped `diffrax.diffeqsolve`; the checker must see through the solver object's call to the filter_jit boundary.
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
    s_val = s.ustrip(s_unit)
    tau_0_val = tau_0.ustrip(tau_unit)

    def ode_rhs(sigma: Any, tau_flat: Any, args: Any) -> Any:
        """Right-hand side in the rescaled parameter ``sigma``."""
        del sigma, args
        tau_q = u.Q(tau_flat, tau_unit)
        return s_val / _speed(curve, tau_unit, s_unit, tau_q)

    sol = diffeqsolver(dfx.ODETerm(ode_rhs), 0.0, 1.0, None, tau_0_val)  # expect: static-fresh-callable
    return u.Q(sol.ys[-1], tau_unit)


def helix(tau):
    t = tau.ustrip("s")
    return u.Q(jnp.stack([jnp.cos(t), jnp.sin(t), t]), "m")


for s in (0.5, 2.0, 4.0):
    before = traces
    tau = _solve_tau(helix, u.unit("s"), u.Q(0.0, "s"), _DIFFEQSOLVER, u.Q(s, "m"))
    print(f"s={s}: tau={float(tau.ustrip('s')):.6f}, retraced={traces > before}")
