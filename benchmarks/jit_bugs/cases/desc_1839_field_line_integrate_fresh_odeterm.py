"""Source: https://github.com/PlasmaControl/DESC/pull/1839
Library: equinox
Reported: "The lambda function definition in the `field_line_integrate` can cause recompilation if one
uses it in an objective" (PR #1839, resolving #1759). Each call of `field_line_integrate` defines a new
local `odefun` closure (over `field`, `params`, `source_grid`), wraps it in `ODETerm(odefun)` and passes
the term to `diffrax.diffeqsolve`, an `eqx.filter_jit` function that treats the callable inside the
term as static -- so every call (e.g. each optimizer iteration) retraces and recompiles the solve.
The fix moved the function out to module level and passed the field/params in `args`.
Transcribed: `field_line_integrate` from desc/magnetic_fields/_core.py before the PR, with the docstring
and the `DiscreteTerminatingEvent` default (removed from diffrax 0.7) left out. Added a minimal
toroidal field class with `compute_magnetic_field`, a trace counter, and repeated calls.
Hard: The checker must know that `diffeqsolve` is `eqx.filter_jit`-ed, so a non-array argument such as
`ODETerm(odefun)` is static, and that `odefun` is a local function made afresh per call of
`field_line_integrate` (so the term, a Module holding it, is a fresh callable in a static position);
the local `@jit def odefun` is itself a jit object re-made on every call.
"""
import warnings

import jax.numpy as jnp
import numpy as np
from jax import jit
from diffrax import ODETerm, PIDController, SaveAt, Tsit5, diffeqsolve

traces = 0


class ToroidalMagneticField:
    def __init__(self, B0, R0):
        self.B0, self.R0 = B0, R0

    def compute_magnetic_field(self, coords, params=None, basis="rpz", source_grid=None):
        r = coords[:, 0]
        return jnp.stack([jnp.zeros_like(r), self.B0 * self.R0 / r, 0.01 * jnp.ones_like(r)]).T


def field_line_integrate(
    r0,
    z0,
    phis,
    field,
    params=None,
    source_grid=None,
    rtol=1e-8,
    atol=1e-8,
    maxstep=1000,
    min_step_size=1e-8,
    solver=Tsit5(),
    bounds_R=(0, np.inf),
    bounds_Z=(-np.inf, np.inf),
    **kwargs,
):
    r0, z0, phis = map(jnp.asarray, (r0, z0, phis))
    assert r0.shape == z0.shape, "r0 and z0 must have the same shape"
    rshape = r0.shape
    r0 = r0.flatten()
    z0 = z0.flatten()
    x0 = jnp.array([r0, phis[0] * jnp.ones_like(r0), z0]).T

    @jit  # expect: jit-fresh-function
    def odefun(s, rpz, args):
        global traces
        traces += 1
        rpz = rpz.reshape((3, -1)).T
        r = rpz[:, 0]
        br, bp, bz = field.compute_magnetic_field(
            rpz, params, basis="rpz", source_grid=source_grid
        ).T
        return jnp.array(
            [r * br / bp * jnp.sign(bp), jnp.sign(bp), r * bz / bp * jnp.sign(bp)]
        ).squeeze()

    kwargs.setdefault(
        "stepsize_controller", PIDController(rtol=rtol, atol=atol, dtmin=min_step_size)
    )

    term = ODETerm(odefun)
    saveat = SaveAt(ts=phis)

    intfun = lambda x: diffeqsolve(
        term,  # expect: static-fresh-callable
        solver,
        y0=x,
        t0=phis[0],
        t1=phis[-1],
        saveat=saveat,
        max_steps=maxstep * len(phis),
        dt0=min_step_size,
        **kwargs,
    ).ys

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="unhashable type")
        x = jnp.vectorize(intfun, signature="(k)->(n,k)")(x0)

    x = jnp.where(jnp.isinf(x), jnp.nan, x)
    r = x[:, :, 0].squeeze().T.reshape((len(phis), *rshape))
    z = x[:, :, 2].squeeze().T.reshape((len(phis), *rshape))

    return r, z


field = ToroidalMagneticField(2.0, 10.0)
for it in range(3):  # e.g. three evaluations inside an optimization objective
    r, z = field_line_integrate([10.001], [0.0], [0, 2 * np.pi], field)
    traces_after = traces
    print("call", it, "odefun traces so far:", traces_after)
