"""Source: https://github.com/flatironinstitute/nemos/issues/547
Library: equinox
Reported: "NeMoS's JAX-based solvers recompile on every `fit()` call ... Sklearn's `GridSearchCV` and `cross_val_score` call `clone()` on the estimator before each fold. `clone()` reconstructs the model via `__init__`, producing a fresh instance with no compiled solver. Every fold of every grid point therefore triggers a cold JIT compilation. For a 5-fold CV over a 3-point parameter grid the total compilation count is 15." The solver adapter is built anew for each fit; its `__init__` wraps the loss in fresh closures (`regularizer.penalized_loss(...)`, then `pack_args(...)`, `wrap_aux(...)`) and `run` hands that closure as `fn` to `optx.minimise`, which is `eqx.filter_jit`-ed and holds `fn` static (hashed by identity), so each fit traces and compiles the whole minimisation again.
Transcribed: `OptimistixAdapter.__init__` (the non-proximal branch) and `.run` from src/nemos/solvers/_optimistix_adapter.py at https://github.com/flatironinstitute/nemos/blob/c80170b0588f897c461b3ae7e3e44b960cdb05ec/src/nemos/solvers/_optimistix_adapter.py, with `pack_args`, `wrap_aux`, `drop_aux` from solvers/_aux_helpers.py and `Regularizer.penalized_loss` (reduced to a ridge penalty) from regularizer.py at the same commit. `OptimistixConfig` is reduced to the fields `run` reads, `_get_optim_info` and the adapter state class are cut (run returns the solution), `_solver_cls` is `optx.BFGS`. Added a least-squares GLM loss with a trace counter and a driver that, like the issue's cross-validation loop, builds a fresh adapter per fold and fits.
Hard: the fresh callable is made in `__init__` through two module-level factories (`penalized_loss`, a method returning a nested function, then `pack_args`/`wrap_aux`) and stored on a plain class instance; it reaches the filter_jit boundary only later, in another method, as `fn=self.fun_with_aux` to `optx.minimise`. The adapter is rebuilt per fit by the caller's loop. Both branches of `__init__` store a fresh closure in `fun_with_aux`, so both are marked: the driver takes the `has_aux=False` one, and an adapter built with `has_aux=True` recompiles the same way.
"""
import dataclasses
from typing import Any, Callable

import jax
import jax.numpy as jnp
import optimistix as optx

traces = 0


def wrap_aux(fn: Callable) -> Callable:
    """Make function that returns (fn(...), None)."""

    def _fn_with_aux(*args, **kwargs):
        return fn(*args, **kwargs), None

    return _fn_with_aux


def drop_aux(fn: Callable) -> Callable:
    """Make function that returns fn's value without its aux."""

    def _fn_without_aux(*args, **kwargs):
        return fn(*args, **kwargs)[0]

    return _fn_without_aux


def pack_args(fn: Callable) -> Callable:
    """Make function that accepts fn(params, args) instead of fn(params, *args)."""

    def _fn_with_packed_args(params, args):
        return fn(params, *args)

    return _fn_with_packed_args


class Ridge:
    def penalized_loss(self, loss: Callable, params: Any, strength: Any) -> Callable:
        """Return a function for calculating the penalized loss."""

        def _penalized_loss(params, *args, **kwargs):
            result = loss(params, *args, **kwargs)
            penalty = 0.5 * strength * jnp.sum(params**2)
            return result + penalty

        return _penalized_loss


@dataclasses.dataclass
class OptimistixConfig:
    maxiter: int = 1000
    options: dict = dataclasses.field(default_factory=dict)
    tags: frozenset = frozenset()
    throw: bool = False
    adjoint: optx.AbstractAdjoint = optx.ImplicitAdjoint()


class OptimistixAdapter:
    _solver_cls = optx.BFGS

    def __init__(
        self,
        unregularized_loss: Callable,
        regularizer,
        regularizer_strength: float | None,
        has_aux: bool,
        init_params=None,
        tol: float = 1e-8,
        rtol: float = 0.0,
        maxiter: int | None = None,
        **solver_init_kwargs,
    ):
        loss_fn = regularizer.penalized_loss(
            unregularized_loss, params=init_params, strength=regularizer_strength
        )
        if maxiter is None:
            maxiter = 1000

        self.config = OptimistixConfig(maxiter=maxiter)

        if has_aux:
            self.fun_with_aux = pack_args(loss_fn)  # expect: static-fresh-callable
            self.fun = drop_aux(self.fun_with_aux)
        else:
            self.fun = pack_args(loss_fn)
            self.fun_with_aux = wrap_aux(self.fun)  # expect: static-fresh-callable

        self._solver = self._solver_cls(
            atol=tol,
            rtol=rtol,
            norm=optx.two_norm,
            **solver_init_kwargs,
        )

    def run(self, init_params, *args: Any):
        solution = optx.minimise(
            fn=self.fun_with_aux,
            solver=self._solver,
            y0=init_params,
            args=args,
            options=self.config.options,
            has_aux=True,
            max_steps=self.config.maxiter,
            adjoint=self.config.adjoint,
            throw=self.config.throw,
            tags=self.config.tags,
        )
        return solution.value


def glm_loss(params, X, y):
    global traces
    traces += 1
    return jnp.mean((X @ params - y) ** 2)


X = jax.random.normal(jax.random.PRNGKey(0), (100, 2))
y = X @ jnp.array([1.0, -2.0])
for fold in range(3):  # one fresh adapter per fold, as sklearn's clone() gives
    before = traces
    solver = OptimistixAdapter(glm_loss, Ridge(), 0.1, has_aux=False)
    Xf, yf = jnp.roll(X, 10 * fold, axis=0)[:80], jnp.roll(y, 10 * fold)[:80]  # same shapes
    coef = solver.run(jnp.zeros(2), Xf, yf)
    print(f"fold {fold}: coef={coef}, retraced={traces > before}")
