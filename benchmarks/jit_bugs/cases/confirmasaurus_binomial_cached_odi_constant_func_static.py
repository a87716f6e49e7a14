"""Source: https://github.com/Confirm-Solutions/confirmasaurus/blob/38c6142312c11b667835f65f559718a2db084806/confirm/berrylib/binomial.py
Library: plain-jax
Correct: `_build_odi_constant_func(q)` defines `f` inside the function and jits `jax.vmap(f, ...)` there, but only when `q` is not yet in the module-level dict `constant_func_cache`; every later call with the same `q` returns the object stored under that key. `holder_odi_bound` and `invert_bound` (both jitted, `holderq` static) fetch it and hand it to `_calc_Cqpp`, whose `static_argnums` include the callable `C_f`, so equal `q` means the same function object in that static position: `f` is traced once per `q` and argument shape (the first call traces it for the tile corners and for p = 0.5), and no later call traces it or `_calc_Cqpp` again. A checker that reported a jitted local function passed in a static position, without seeing the cache, would be wrong here.
Transcribed: `constant_func_cache`, `_build_odi_constant_func`, `_calc_Cqpp`, `holder_odi_bound` and `invert_bound` from confirm/berrylib/binomial.py at commit 38c6142 (docstrings kept, the symbolic-root comment block too). numpyro (not installed) is replaced: `dist.Binomial(n, pf).log_prob(xs)` becomes `binom_log_prob(n, pf, xs)`, a module-level wrapper of `jax.scipy.stats.binom.logpmf`; `jax_enable_x64` is turned on for the float64 `xs`. A trace counter in `f` and a driver (two tiles in two arms, q = 4, two calls of `holder_odi_bound` with different type I bounds and one of `invert_bound`) were added.
"""
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

traces = 0


def binom_log_prob(n, p, k):
    return jax.scipy.stats.binom.logpmf(k, n, p)


constant_func_cache = {}


def _build_odi_constant_func(q: float):
    """
    Fully numerical integration constant evaluator. This can be useful for
    non-integer q.

    Args:
        q: The moment to compute. Must be a float greater than 1.
    """
    def f(n, p):
        global traces
        traces += 1
        if isinstance(p, float):
            pf = np.array([p])
        else:
            pf = p.flatten()
        xs = jnp.arange(n + 1).astype(jnp.float64)
        return jnp.exp(
            jax.scipy.special.logsumexp(
                q * jnp.log(jnp.abs(xs - n * pf)) + binom_log_prob(n, pf, xs)
            )
        )

    if q not in constant_func_cache:
        constant_func_cache[q] = jax.jit(
            jax.vmap(f, in_axes=(None, 0)), static_argnums=(0,)
        )

    return constant_func_cache[q]


@partial(jax.jit, static_argnums=(2, 3, 4, 5))
def _calc_Cqpp(
    theta_tiles,
    tile_corners,
    n_arm_samples: int,
    holderq: int,
    C_f: Callable,
    radius_ratio: float = 1.0,
):
    """
    Calculate C_q^{''} from the paper for a tile.

    See holder_odi_bound for more details on the arguments.

    This function is mostly model-independent. The part that would need to
    change is the identification of sign changes.
    """

    # NOTE: code to calculate roots symbolically:
    # q = 6
    # sp_p, sp_t, sp_n = sp.var("p, t, n")
    # binomial_mgf = (1 - sp_p + sp_p * sp.exp(sp_t)) ** sp_n
    # mean = sp.diff(binomial_mgf, sp_t).subs(sp_t, 0)
    # central_moment = (
    #     sp.diff(sp.exp(-mean * sp_t) * binomial_mgf, sp_t, q).subs(sp_t, 0).simplify()
    # )
    # rts = sp.roots(sp.Poly(sp.diff(central_moment.subs(n, 50))))

    # we know that the only derivative sign change is at 0.5 for q < 16
    # we know less about odd q because of the absolute value. so, for now, we
    # ban odd q and q > 16
    if not isinstance(holderq, int) or holderq > 16 or holderq % 2 != 0:
        raise ValueError("The q parameter must be an even integer less than 16.")

    holderp = 1 / (1 - 1.0 / holderq)
    sup_v = jnp.max(
        jnp.sum(
            jnp.where(
                jnp.isnan(tile_corners),
                0,
                jnp.abs(radius_ratio * (tile_corners - theta_tiles[:, None]))
                ** holderp,
            ),
            axis=2,
        )
        ** (1.0 / holderp),
        axis=1,
    )

    tile_corners_p = jax.scipy.special.expit(tile_corners)

    # NOTE: we are assuming that we know the supremum occurs at a corner or at
    # p=0.5. This might not be true for other models or for q > 16.
    C_corners = jnp.where(
        jnp.isnan(tile_corners_p.ravel()),
        0,
        C_f(n_arm_samples, tile_corners_p.ravel()),
    ).reshape(tile_corners_p.shape)

    # maximum per dimension over the corners of the tile
    C_max = jnp.max(C_corners, axis=1)
    # if the tile crosses p=0.5, we just set C_max equal to the value at 0.5
    C_max = jnp.where(
        jnp.any(tile_corners_p < 0.5, axis=1) & jnp.any(tile_corners_p > 0.5, axis=1),
        C_f(n_arm_samples, jnp.array([0.5]))[0],
        C_max,
    )

    # finally, sum across the arms to compute the full multidimensional moment
    # expectation
    sup_moment = jnp.sum(C_max, axis=-1) ** (1 / holderq)

    # Cq'' from the paper:
    return sup_v * sup_moment


@partial(jax.jit, static_argnums=(3, 4, 5, 6))
def holder_odi_bound(
    typeI_bound,
    theta_tiles,
    tile_corners,
    n_arm_samples: int,
    holderq: int,
    radius_ratio: float = 1.0,
    C_f: Callable = None,
):
    """
    Compute the Holder-ODI on Type I Error. See the paper for mathematical
    details.

    Args:
        typeI_bound: the type I error bound at the simulation points.
        theta_tiles: numpy array containing tile simulation points with shape:
            (n_tiles, n_arms)
        tile_corners: numpy array containing tile corners with shape:
            (n_tiles, n_corners_per_tile, n_arms)
        n_arm_samples: number of samples per arm, Binomial n parameter
        holderq: Holder exponent, q in C_q^{''}

    Returns:
        The Holder ODI type I error bound for each tile.
    """
    if C_f is None:
        C_f = _build_odi_constant_func(holderq)
    Cqpp = _calc_Cqpp(
        theta_tiles,
        tile_corners,
        n_arm_samples,
        holderq,
        C_f,
        radius_ratio=radius_ratio,
    )
    return (Cqpp / holderq + typeI_bound ** (1 / holderq)) ** holderq


@partial(jax.jit, static_argnums=(3, 4))
def invert_bound(bound, theta_tiles, vertices, n_arm_samples, holderq):
    C_f = _build_odi_constant_func(holderq)
    Cqpp = _calc_Cqpp(theta_tiles, vertices, n_arm_samples, holderq, C_f)
    pointwise_bound = (bound ** (1 / holderq) - Cqpp / holderq) ** holderq
    return jnp.where(pointwise_bound > bound, 0.0, pointwise_bound)


theta_tiles = jnp.array([[-0.5, 0.2], [0.1, 0.3]])
tile_corners = theta_tiles[:, None, :] + jnp.array([[-0.1, -0.1], [-0.1, 0.1], [0.1, -0.1], [0.1, 0.1]])[None]
print(holder_odi_bound(jnp.array([0.01, 0.02]), theta_tiles, tile_corners, 35, 4))
first = traces
print(holder_odi_bound(jnp.array([0.03, 0.04]), theta_tiles, tile_corners, 35, 4))
print(invert_bound(0.025, theta_tiles, tile_corners, 35, 4))
print("f traced in the first call:", first, "(the two shapes _calc_Cqpp calls C_f with)")
print("f traced by the later calls:", traces - first)  # 0: q=4 finds the cached jitted function
