"""Source: https://github.com/hiddenSymmetries/simsopt/blob/003b4e6cbd7395ce9c132195a42ca275230f092b/src/simsopt/geo/curve.py
Library: plain-jax
Correct: simsopt's geometry module jits its curve kernels through its own wrapper, `simsopt.geo.jit.jit` (`jax.jit` when the `SIMSGEOJIT` setting is on, the plain function otherwise), and keeps the results as module globals: `@jit` on module-level functions and `kappavjp0 = jit(lambda d1gamma, d2gamma, v: vjp(lambda d1g: kappa_pure(d1g, d2gamma), d1gamma)[1](v)[0])` and its siblings, lambdas jitted once at import. The curve classes call these globals for every curve and every optimisation step; each compiles once per shape. A checker that reports `jit(lambda ...)` as a function made afresh, or that cannot see through the project's wrapper to tell that it runs once, would flag correct code.
Transcribed: the module-level part of src/simsopt/geo/curve.py at the commit named (from `center_pure` to `torsionvjp2`), unchanged; `jit` from src/simsopt/geo/jit.py (commit 3b5d3cd21f224c14263331dd1ef04cd2551222f5) and `parameters` from src/simsopt/geo/config.py inlined; the `Curve` classes, which need simsopt's C++ extension, are left out. The driver evaluates the kernels on three helices of the same resolution, as the methods `kappa_impl`, `dkappa_by_dcoeff_vjp` and `dtorsion_by_dcoeff_vjp` do for each curve, and counts backend compilations with a `jax.monitoring` listener.
"""
import os

import numpy as np
import jax; jax.config.update('jax_platform_name', 'cpu')
from jax import vjp, jacfwd, jvp
from jax import jit as jaxjit
import jax.numpy as jnp

# src/simsopt/geo/config.py
parameters = {
    "jit": True
}

if "SIMSGEOJIT" in os.environ:
    parameters["jit"] = os.environ["SIMSGEOJIT"].lower() in ['true', '1', 't', 'y', 'yes', 'yeah', 'yup', 'certainly']


# src/simsopt/geo/jit.py
def jit(fun):
    if parameters['jit']:
        return jaxjit(fun)
    else:
        return fun


compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


@jit     
def center_pure(gamma, gammadash):
    # Compute the centroid of the curve
    arclength = jnp.linalg.norm(gammadash, axis=-1)
    barycenter = jnp.sum(gamma * arclength[:, None], axis=0) / jnp.sum(arclength)
    return barycenter

@jit
def incremental_arclength_pure(d1gamma):
    """
    This function is used in a Python+Jax implementation of the curve arc length formula.
    """

    return jnp.linalg.norm(d1gamma, axis=1)


incremental_arclength_vjp = jit(lambda d1gamma, v: vjp(lambda d1g: incremental_arclength_pure(d1g), d1gamma)[1](v)[0])


@jit
def kappa_pure(d1gamma, d2gamma):
    """
    This function is used in a Python+Jax implementation of formula for curvature.
    """

    return jnp.linalg.norm(jnp.cross(d1gamma, d2gamma), axis=1)/jnp.linalg.norm(d1gamma, axis=1)**3


kappavjp0 = jit(lambda d1gamma, d2gamma, v: vjp(lambda d1g: kappa_pure(d1g, d2gamma), d1gamma)[1](v)[0])
kappavjp1 = jit(lambda d1gamma, d2gamma, v: vjp(lambda d2g: kappa_pure(d1gamma, d2g), d2gamma)[1](v)[0])
kappagrad0 = jit(lambda d1gamma, d2gamma: jacfwd(lambda d1g: kappa_pure(d1g, d2gamma))(d1gamma))
kappagrad1 = jit(lambda d1gamma, d2gamma: jacfwd(lambda d2g: kappa_pure(d1gamma, d2g))(d2gamma))


@jit
def torsion_pure(d1gamma, d2gamma, d3gamma):
    """
    This function is used in a Python+Jax implementation of formula for torsion.
    """

    return jnp.sum(jnp.cross(d1gamma, d2gamma, axis=1) * d3gamma, axis=1) / jnp.sum(jnp.cross(d1gamma, d2gamma, axis=1)**2, axis=1)


torsionvjp0 = jit(lambda d1gamma, d2gamma, d3gamma, v: vjp(lambda d1g: torsion_pure(d1g, d2gamma, d3gamma), d1gamma)[1](v)[0])
torsionvjp1 = jit(lambda d1gamma, d2gamma, d3gamma, v: vjp(lambda d2g: torsion_pure(d1gamma, d2g, d3gamma), d2gamma)[1](v)[0])
torsionvjp2 = jit(lambda d1gamma, d2gamma, d3gamma, v: vjp(lambda d3g: torsion_pure(d1gamma, d2gamma, d3g), d3gamma)[1](v)[0])


def helix(radius, pitch, n=32):
    phi = np.linspace(0, 2 * np.pi, n, endpoint=False)
    gamma = np.stack([radius * np.cos(phi), radius * np.sin(phi), pitch * phi], axis=1)
    d1 = np.stack([-radius * np.sin(phi), radius * np.cos(phi), pitch * np.ones_like(phi)], axis=1)
    d2 = np.stack([-radius * np.cos(phi), -radius * np.sin(phi), np.zeros_like(phi)], axis=1)
    d3 = np.stack([radius * np.sin(phi), -radius * np.cos(phi), np.zeros_like(phi)], axis=1)
    return gamma, d1, d2, d3


counts = []
for radius in (1.0, 1.5, 2.0):
    gamma, d1, d2, d3 = helix(radius, 0.3)
    v = np.ones(len(gamma))
    center_pure(gamma, d1)
    incremental_arclength_vjp(d1, v)
    kappa = np.asarray(kappa_pure(d1, d2))
    kappavjp0(d1, d2, v); kappavjp1(d1, d2, v)
    kappagrad0(d1, d2); kappagrad1(d1, d2)
    torsion = torsion_pure(d1, d2, d3)
    torsionvjp0(d1, d2, d3, v); torsionvjp1(d1, d2, d3, v); torsionvjp2(d1, d2, d3, v)
    print(f"radius {radius}: curvature {kappa[0]:.4f}, torsion {float(torsion[0]):.4f}")
    counts.append(compiles)
print("compilations after each curve:", counts)  # the same after the first curve
