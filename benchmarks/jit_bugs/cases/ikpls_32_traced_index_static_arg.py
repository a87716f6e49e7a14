"""Source: https://github.com/sm00thix/ikpls/pull/32
Library: plain-jax
Reported: running the JAX Improved Kernel PLS benchmarks prints 'FutureWarning: unhashable type: <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>. Attempting to hash a tracer will lead to an error in a future JAX release.' (https://github.com/sm00thix/ikpls/issues/24#issuecomment-2194939864); the pull request's fix: _step_3 was jitted with its argument i static, but _main_loop_body, itself jitted with i traced, passes that tracer on to _step_3 (the pull request also corrects _step_2's annotations of its static M and K from jax.Array to int).
Transcribed: ikpls/jax_ikpls_base.py and ikpls/jax_ikpls_alg_1.py at commit ee3de3e51c254693b4c53e12670b4383795c60c5 (the parent of the fix), cut to one class holding _step_2, _step_3, _step_3_body and _step_5 of PLSBase and _step_4 and _main_loop_body of the algorithm #1 PLS, without their docstrings; __init__ is cut to the attributes these methods read, _weight_warning to its test, and the abstract base class, fit, predict and cross-validation are left out; a driver running the loop of stateless_fit (for i in range(A): self._main_loop_body(A, i, ...)) on random data was added.
Not marked: _step_2's static M and K, annotated jax.Array, which the pull request corrects to int;
every call passes ints (shapes), so the annotation is wrong and the code is not (mypy's own
arg-type check reports the mismatch where the callers are typed).
Hard: i is a traced parameter of the jitted _main_loop_body (its static_argnums, (0, 1, 5, 6, 9), do not include i's position 2) and is passed in a static position of another jitted method, called through self.
"""
from functools import partial
from typing import Tuple
import warnings

import jax
import jax.numpy as jnp
import jax.numpy.linalg as jla
import numpy as np
from numpy.typing import DTypeLike


class PLS:
    def __init__(self, reverse_differentiable: bool = False, verbose: bool = False):
        self.reverse_differentiable = reverse_differentiable
        self.verbose = verbose
        self.name = "Improved Kernel PLS Algorithm #1"

    def _weight_warning(self, arg):
        i, norm = arg
        if np.isclose(norm, 0, atol=np.finfo(np.float64).eps, rtol=0):
            warnings.warn(f"Weight is close to zero. Results with A = {i} component(s) or higher may be unstable.")

    @partial(jax.jit, static_argnums=(0, 2, 3))
    def _step_2(
        self, XTY: jax.Array, M: jax.Array, K: jax.Array
    ) -> Tuple[jax.Array, DTypeLike]:
        if self.verbose:
            print(f"_step_2 for {self.name} will be JIT compiled...")
        if M == 1:
            norm = jla.norm(XTY)
            w = XTY / norm
        else:
            if M < K:
                XTYTXTY = XTY.T @ XTY
                eig_vals, eig_vecs = jla.eigh(XTYTXTY)
                q = eig_vecs[:, -1:]
                q = q.reshape(-1, 1)
                w = XTY @ q
                norm = jla.norm(w)
                w = w / norm
            else:
                XTYYTX = XTY @ XTY.T
                eig_vals, eig_vecs = jla.eigh(XTYYTX)
                w = eig_vecs[:, -1:]
                norm = eig_vals[-1]
        return w, norm

    @partial(jax.jit, static_argnums=(0, 1))
    def _step_3(self, i: int, w: jax.Array, P: jax.Array, R: jax.Array) -> jax.Array:
        if self.verbose:
            print(f"_step_3 for {self.name} will be JIT compiled...")
        r = jnp.copy(w)
        r, P, w, R = jax.lax.fori_loop(0, i, self._step_3_body, (r, P, w, R))
        return r

    @partial(jax.jit, static_argnums=0)
    def _step_3_body(
        self, j: int, carry: Tuple[jax.Array, jax.Array, jax.Array, jax.Array]
    ) -> Tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        if self.verbose:
            print(f"_step_3_body for {self.name} will be JIT compiled...")
        r, P, w, R = carry
        r = r - P[j].reshape(-1, 1).T @ w * R[j].reshape(-1, 1)
        return r, P, w, R

    @partial(jax.jit, static_argnums=(0,))
    def _step_4(self, X: jax.Array, XTY: jax.Array, r: jax.Array):
        if self.verbose:
            print(f"_step_4 for {self.name} will be JIT compiled...")
        t = X @ r
        tT = t.T
        tTt = tT @ t
        p = (tT @ X).T / tTt
        q = (r.T @ XTY).T / tTt
        return tTt, p, q, t

    @partial(jax.jit, static_argnums=0)
    def _step_5(
        self, XTY: jax.Array, p: jax.Array, q: jax.Array, tTt: jax.Array
    ) -> jax.Array:
        if self.verbose:
            print(f"_step_5 for {self.name} will be JIT compiled...")
        return XTY - (p @ q.T) * tTt

    @partial(jax.jit, static_argnums=(0, 1, 5, 6, 9))
    def _main_loop_body(
        self,
        A: int,
        i: int,
        X: jax.Array,
        XTY: jax.Array,
        M: int,
        K: int,
        P: jax.Array,
        R: jax.Array,
        reverse_differentiable: bool,
    ) -> Tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]:
        if self.verbose:
            print(f"_main_loop_body for {self.name} will be JIT compiled...")
        # step 2
        w, norm = self._step_2(XTY, M, K)
        jax.debug.callback(self._weight_warning, (i, norm))
        # step 3
        if reverse_differentiable:
            r = self._step_3(A, w, P, R)
        else:
            r = self._step_3(i, w, P, R)  # expect: static-dynamic-child
        # step 4
        tTt, p, q, t = self._step_4(X, XTY, r)
        # step 5
        XTY = self._step_5(XTY, p, q, tTt)
        return XTY, w, p, q, r, t


rng = np.random.default_rng(0)
X = jnp.asarray(rng.normal(size=(20, 5)), dtype=jnp.float32)
Y = jnp.asarray(rng.normal(size=(20, 1)), dtype=jnp.float32)
A, (N, K), M = 3, X.shape, Y.shape[1]
XTY = X.T @ Y
P = jnp.zeros((A, K))
R = jnp.zeros((A, K))

pls = PLS()
for i in range(A):
    XTY, w, p, q, r, t = pls._main_loop_body(
        A, i, X, XTY, M, K, P, R, pls.reverse_differentiable
    )
    P = P.at[i].set(p.squeeze())
    R = R.at[i].set(r.squeeze())
print(R)
