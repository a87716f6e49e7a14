"""Source: https://github.com/f0uriest/interpax/pull/99
Library: plain-jax
Reported: the pull request "Avoids jitting a locally defined function which was causing excessive recompilation (resolves #94)". Before it, `approx_df` (interpax's public finite-difference helper, called by every `Interpolator1D`/`2D`/`3D` constructor and by the `interp*` functions) defined `fun`, closing over `method`, `axis` and the keyword arguments "to deal with non-jittable kwargs", and returned `jit(fun)(x, f)`: every call jits a new function object, so jit's cache never hits and each call traces and compiles `_approx_df` again, even for the same method and shapes. The fix (commit c7c5d94, merged in #99) drops the local jit and decorates the per-method helpers with `eqx.filter_jit` instead.
Transcribed: `approx_df` and `_approx_df` from interpax/_fd_derivs.py at the parent of the fix commit (c7c5d94^), with the `'cubic'`, `'cardinal'` and `'catmull-rom'` branches and their helpers `_cubic1` and `_cardinal` unchanged; the `'cubic2'`, `'monotonic'`, `'monotonic-0'` and `'akima'` branches (and their helpers, with `_validate_bc` and lineax) are cut, and the docstring is shortened. Added a trace counter in `_approx_df` and a driver that calls `approx_df` for three data sets of the same shape, as three interpolator constructions do.
Hard: the jitted function is a `def` local to `approx_df`, a module-level function the driver's loop calls; `jit(fun)` is called at once and returned, never kept.
"""
import jax
import jax.numpy as jnp
from jax import jit

traces = 0


def approx_df(
    x: jax.Array, f: jax.Array, method: str = "cubic", axis: int = -1, **kwargs
):
    """Approximates first derivatives using cubic spline interpolation."""
    # noqa: D202

    # close over static args to deal with non-jittable kwargs
    def fun(x, f):
        return _approx_df(x, f, method, axis, **kwargs)

    return jit(fun)(x, f)  # expect: jit-fresh-function


def _approx_df(x, f, method, axis, c=0, bc_type="not-a-knot"):
    global traces
    traces += 1
    if method == "cubic":
        out = _cubic1(x, f, axis)
    elif method == "cardinal":
        out = _cardinal(x, f, axis, c=c)
    elif method == "catmull-rom":
        out = _cardinal(x, f, axis, c=0)
    elif method in ("nearest", "linear"):
        out = jnp.zeros_like(f)
    else:
        raise ValueError(f"got unknown method {method}")
    return out


def _cubic1(x, f, axis):
    dx = jnp.diff(x)
    df = jnp.diff(f, axis=axis)
    dxi = jnp.where(dx == 0, 0, 1 / dx)
    if df.ndim > dxi.ndim:
        dxi = jnp.expand_dims(dxi, tuple(range(1, df.ndim)))
        dxi = jnp.moveaxis(dxi, 0, axis)
    df = dxi * df
    fx = jnp.concatenate(
        [
            jnp.take(df, jnp.array([0]), axis, mode="wrap"),
            1
            / 2
            * (
                jnp.take(df, jnp.arange(0, df.shape[axis] - 1), axis, mode="wrap")
                + jnp.take(df, jnp.arange(1, df.shape[axis]), axis, mode="wrap")
            ),
            jnp.take(df, jnp.array([-1]), axis, mode="wrap"),
        ],
        axis=axis,
    )
    return fx


def _cardinal(x, f, axis, c=0):
    dx = x[2:] - x[:-2]
    df = jnp.take(f, jnp.arange(2, f.shape[axis]), axis, mode="wrap") - jnp.take(
        f, jnp.arange(0, f.shape[axis] - 2), axis, mode="wrap"
    )
    dxi = jnp.where(dx == 0, 0, 1 / dx)
    if df.ndim > dxi.ndim:
        dxi = jnp.expand_dims(dxi, tuple(range(1, df.ndim)))
        dxi = jnp.moveaxis(dxi, 0, axis)
    df = dxi * df
    fx0 = jnp.take(f, jnp.array([1]), axis, mode="wrap") - jnp.take(
        f, jnp.array([0]), axis, mode="wrap"
    )
    fx0 *= jnp.where(x[0] == x[1], 0, 1 / (x[1] - x[0]))
    fx1 = jnp.take(f, jnp.array([-1]), axis, mode="wrap") - jnp.take(
        f, jnp.array([-2]), axis, mode="wrap"
    )
    fx1 *= jnp.where(x[-1] == x[-2], 0, 1 / (x[-1] - x[-2]))

    fx = (1 - c) * jnp.concatenate([fx0, df, fx1], axis=axis)
    return fx


x = jnp.linspace(0, 2 * jnp.pi, 20)
for k in (1.0, 2.0, 3.0):  # three interpolators over the same knots
    before = traces
    fx = approx_df(x, jnp.sin(k * x), "cubic", axis=0)
    print(f"k={k}: max|fx|={float(jnp.abs(fx).max()):.3f}, traced again: {traces > before}")
