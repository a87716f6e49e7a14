"""Source: https://github.com/f0uriest/interpax/pull/77
Library: plain-jax
Reported: "Interpax objects can't pass through a normal `jax.jit` because the method attribute is a
string. `equinox.filter_jit` works because it partitions first." `Interpolator1D` is an equinox Module
whose `method: str` field is an ordinary (data) field, so jax.jit meets the string as a leaf and fails
with "... of type <class 'str'> is not a valid JAX type". The pull request declares the field
`eqx.field(static=True)`.
Transcribed: `Interpolator1D` from interpax/_spline.py at 7fff209^ (the parent of the pull request's
commit), docstrings dropped; `errorif` and `asarray_inexact` from interpax/utils.py verbatim; `METHODS_1D`
verbatim. Minimal stand-ins: `approx_df` (finite differences by `jnp.gradient`) and `interp1d`
(`jnp.interp`, keeping the reported `@partial(jit, static_argnames="method")`). Added a function that
takes an interpolator, its `jax.jit`, and the two calls the report contrasts (jax.jit fails, caught
and printed; eqx.filter_jit works).
Hard: the checker must flatten an equinox Module passed in a traced position of a plain jax.jit call
and see that one of its data fields is declared `str`, which jit cannot trace.
"""
from functools import partial
from typing import Union

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import jit

CUBIC_METHODS = (
    "cubic",
    "cubic2",
    "cardinal",
    "catmull-rom",
    "akima",
    "monotonic",
    "monotonic-0",
)
OTHER_METHODS = ("nearest", "linear")
METHODS_1D = CUBIC_METHODS + OTHER_METHODS


def errorif(cond, err=ValueError, msg=""):
    if cond:
        raise err(msg)


def asarray_inexact(x):
    x = jnp.asarray(x)
    dtype = x.dtype
    if not jnp.issubdtype(dtype, jnp.inexact):
        dtype = jnp.result_type(x, jnp.array(1.0))
    return x.astype(dtype)


def approx_df(x, f, method="cubic", axis=-1, **kwargs):
    return jnp.gradient(f, x, axis=axis)


@partial(jit, static_argnames="method")
def interp1d(xq, x, f, method="cubic", derivative=0, extrap=False, period=None, **kwargs):
    return jnp.interp(xq, x, f)


class Interpolator1D(eqx.Module):
    x: jax.Array
    f: jax.Array
    derivs: dict
    method: str
    extrap: Union[bool, float, tuple]
    period: Union[None, float]
    axis: int

    def __init__(
        self,
        x: jax.Array,
        f: jax.Array,
        method: str = "cubic",
        extrap: Union[bool, float, tuple] = False,
        period: Union[None, float] = None,
        **kwargs,
    ):
        x, f = map(asarray_inexact, (x, f))
        axis = kwargs.get("axis", 0)
        fx = kwargs.pop("fx", None)

        errorif(
            (len(x) != f.shape[axis]) or (jnp.ndim(x) != 1),
            ValueError,
            "x and f must be arrays of equal length",
        )
        errorif(method not in METHODS_1D, ValueError, f"unknown method {method}")

        self.x = x
        self.f = f
        self.axis = axis
        self.method = method
        self.extrap = extrap
        self.period = period

        if fx is None:
            fx = approx_df(x, f, method, axis, **kwargs)

        self.derivs = {"fx": fx}

    def __call__(self, xq: jax.Array, dx: int = 0):
        return interp1d(
            xq,
            self.x,
            self.f,
            self.method,
            dx,
            self.extrap,
            self.period,
            **self.derivs,
        )


def evaluate(interpolator, xq):
    return interpolator(xq)


x = jnp.linspace(0.0, 1.0, 10)
interp = Interpolator1D(x, jnp.sin(x))
xq = jnp.array([0.25, 0.5])

try:
    print(jax.jit(evaluate)(interp, xq))  # expect: jit-unsupported-argument
except TypeError as e:
    print("jax.jit:", e)

print("eqx.filter_jit:", eqx.filter_jit(evaluate)(interp, xq))
