"""Source: https://github.com/PlasmaControl/DESC/issues/1873
Library: plain-jax
Reported: "original 3D coordinate mapping routines have recompilation issue": `map_coordinates` defines `compute`, `residual`, `jac` and `fixup` as `@jit`-decorated local functions and builds `vecroot = jit(vmap(lambda x0, *p: root(residual, ...)))` inside the function body, so every call makes new function objects and compiles them all again, even for coordinates of the same shape; the issue asks to "just jit the outer function" instead. Running it here, three calls mapping the same three points trace `vecroot` three times, `fixup` six times (three direct calls, three inside `vecroot`) and `compute` nine times.
Transcribed: `map_coordinates` from desc/equilibrium/coords.py at 6f68508fbf648742713814d43c4e100ab75d10af, cut to its general path (the `rho, theta_PEST, zeta` and `rho, alpha, zeta` shortcuts, the iota profile handling and the nearest-neighbour guess are left out, so `guess` must be given). DESC's `Grid`, `get_transforms` and `compute_fun` (which evaluate the equilibrium) are replaced by `_toy_compute`, an analytic torus map giving R, phi, Z and their partial derivatives from (rho, theta, zeta); `root` (desc.backend's Newton solver) is a fixed-count Newton iteration with the same arguments; `eq` is a stand-in with `params_dict`. Trace counters (the one for `vecroot` in the `root` stand-in, which only its trace calls) and a loop mapping the same coordinates three times were added.
Hard: the jitted functions are `def`s inside `map_coordinates` decorated with `@jit` (one with `functools.partial(jit, static_argnums=1)`), and `jit(vmap(lambda ...))` is built in its body; a loop of the module calls `map_coordinates`, so each call compiles `compute`, `fixup` and `vecroot` again. `residual` and `jac` are called only inside `vecroot`'s trace (through `root`), so they are traced again into each new `vecroot` program rather than compiled on their own; they are jitted local functions made at every call all the same, and the rule reports them.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, vmap

TRACES = {"compute": 0, "fixup": 0, "vecroot": 0}


def _toy_compute(names, y):
    # analytic stand-in for DESC's compute machinery: a torus with major radius 3
    y = jnp.atleast_2d(y)  # DESC's Grid takes one node as a (1, 3) array
    rho, theta, zeta = y[:, 0], y[:, 1], y[:, 2]
    data = {
        "R": 3 + rho * jnp.cos(theta),
        "phi": zeta,
        "Z": rho * jnp.sin(theta),
        "R_r": jnp.cos(theta), "R_t": -rho * jnp.sin(theta), "R_z": jnp.zeros_like(rho),
        "phi_r": jnp.zeros_like(rho), "phi_t": jnp.zeros_like(rho), "phi_z": jnp.ones_like(rho),
        "Z_r": jnp.sin(theta), "Z_t": rho * jnp.cos(theta), "Z_z": jnp.zeros_like(rho),
        "rho": rho, "theta": theta, "zeta": zeta,
    }
    return {k: data[k] for k in names}


def root(fun, x0, jac=None, args=(), fixup=None, tol=1e-6, maxiter=20, full_output=False, **kwargs):
    # fixed-count Newton iteration standing in for desc.backend.root
    TRACES["vecroot"] += 1

    def body(i, x):
        r = fun(x, *args)
        J = jac(x, *args)
        x = x - jnp.linalg.solve(J, r.reshape(-1)).reshape(x.shape)
        return fixup(x, *args)

    x = jax.lax.fori_loop(0, maxiter, body, x0)
    if full_output:
        return x, (fun(x, *args), maxiter)
    return x


def _periodic(x, period):
    return jnp.where(jnp.isfinite(period), x % period, x)


def _fixup_residual(r, period):
    r = _periodic(r, period)
    # r should be between -period/2 and period/2
    return jnp.where((r > period / 2) & jnp.isfinite(period), -period + r, r)


class Equilibrium:
    params_dict = {}


def map_coordinates(  # noqa: C901
    eq,
    coords,
    inbasis,
    outbasis=("rho", "theta", "zeta"),
    guess=None,
    params=None,
    period=None,
    tol=1e-6,
    maxiter=30,
    full_output=False,
    **kwargs,
):
    inbasis = tuple(inbasis)
    outbasis = tuple(outbasis)
    params = eq.params_dict if params is None else params

    basis_derivs = tuple(f"{X}_{d}" for X in inbasis for d in ("r", "t", "z"))

    rhomin = kwargs.pop("rhomin", tol / 10)
    period = np.asarray((np.inf, np.inf, np.inf) if period is None else period)
    coords = _periodic(coords, period)

    @functools.partial(jit, static_argnums=1)  # expect: jit-fresh-function
    def compute(y, basis):
        TRACES["compute"] += 1
        data = _toy_compute(basis, y)
        x = jnp.array([data[k] for k in basis]).T
        return x

    @jit  # expect: jit-fresh-function
    def residual(y, coords):
        xk = compute(y, inbasis)
        return _fixup_residual(xk - coords, period)

    @jit  # expect: jit-fresh-function
    def jac(y, coords):
        J = compute(y, basis_derivs)
        J = J.reshape((3, 3))
        return J

    @jit  # expect: jit-fresh-function
    def fixup(y, *args):
        TRACES["fixup"] += 1
        r, t, z = y.T
        # negative rho -> flip theta
        t = jnp.where(r < 0, (t + np.pi), t)
        r = jnp.abs(r)
        r = jnp.clip(r, rhomin, 1)
        y = jnp.array([r, t, z]).T
        return y

    yk = guess

    yk = fixup(yk)

    vecroot = jit(  # expect: jit-fresh-function
        vmap(
            lambda x0, *p: root(
                residual,
                x0,
                jac=jac,
                args=p,
                fixup=fixup,
                tol=tol,
                maxiter=maxiter,
                full_output=full_output,
                **kwargs,
            )
        )
    )
    # See description here
    # https://github.com/PlasmaControl/DESC/pull/504#discussion_r1194172532
    # except we make sure properly handle periodic coordinates.
    if full_output:
        yk, (res, niter) = vecroot(yk, coords)
    else:
        yk = vecroot(yk, coords)

    out = compute(yk, outbasis)
    if full_output:
        return out, (res, niter)
    return out


eq = Equilibrium()
rtz = jnp.array([[0.5, 0.3, 0.1], [0.8, 1.0, 0.2], [0.3, 2.0, 0.4]])
RphiZ = jnp.array(list(_toy_compute(("R", "phi", "Z"), rtz).values())).T
guess = rtz + 0.05
for _ in range(3):
    out = map_coordinates(eq, RphiZ, ("R", "phi", "Z"), guess=guess, maxiter=10)
print("max error:", float(jnp.max(jnp.abs(out - rtz))))
print("traces:", TRACES)
assert TRACES["vecroot"] == 3 and TRACES["fixup"] >= 3, TRACES
print("BUG: three calls with same-shaped coordinates compiled vecroot/compute/fixup three times")
