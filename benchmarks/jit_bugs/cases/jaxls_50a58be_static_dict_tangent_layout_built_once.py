"""Source: https://github.com/brentyi/jaxls/blob/50a58be88c5ef74532f09e3f55268b4f02c490e3/src/jaxls/_problem.py
Library: jax_dataclasses
Correct: jaxls's `AnalyzedLeastSquaresProblem` keeps its tangent-vector layout in a `jdc.Static[dict[type[Var[Any]], int]]` field, `_tangent_start_from_var_type`, built once by `LeastSquaresProblem.analyze()` and never changed afterwards (later code only reads it, or hands the same dict to a new problem it builds); every `problem.solve()` builds a new `NonlinearSolver` pytree dataclass and calls its `@jdc.jit` method `solve` with the problem as an argument. A dict in pytree metadata looks unhashable, but jit compares metadata rather than hashing it, and nothing changes this dict in place, so repeated solves of one analyzed problem (and of a new solver object each time, whose static fields are equal strings and booleans) reuse one compilation. A checker that reports every list or dict in `jdc.Static`, or every jitted method of a class rebuilt per call, would flag correct code. Running it here, three solves from different starting points trace `NonlinearSolver.solve` once.
Transcribed: from src/jaxls/_problem.py, `AnalyzedLeastSquaresProblem` (its static fields `_cost_counts`, `_tangent_start_from_var_type`, `_tangent_dim`, `_residual_dim`; the stacked costs, sparse Jacobian coordinates, ordering and elimination plan are replaced by one array of targets), the part of `LeastSquaresProblem.analyze` that builds `tangent_start_from_var_type` (counting variables per type, sorting types by name) and `AnalyzedLeastSquaresProblem.solve` cut to building the solver and calling it; from src/jaxls/_solvers.py, `NonlinearSolver` with its static fields and a `@jdc.jit` `solve` whose body is three Gauss-Newton steps on the residual `x - targets` laid out by the dict, instead of jaxls's trust-region loop. `Var` is reduced to classes with a `tangent_dim` and an integer id; a trace counter and three solves were added.
"""
from __future__ import annotations

from typing import Any, Literal

import jax
import jax.numpy as jnp
import jax_dataclasses as jdc

TRACES = [0]


class Var:
    tangent_dim: int = 1

    def __init__(self, id: int):
        self.id = id


class PointVar(Var):
    tangent_dim = 2


class ScaleVar(Var):
    tangent_dim = 1


class LeastSquaresProblem:
    def __init__(self, variables, targets):
        self.variables = variables
        self.targets = targets

    def analyze(self) -> AnalyzedLeastSquaresProblem:
        variables = tuple(self.variables)

        # Create storage layout: this describes which parts of our tangent
        # vector is allocated to each variable.
        tangent_start_from_var_type = dict[type[Var], int]()

        def _sort_key(x: Any) -> str:
            """We're going to sort variable / cost types by name. This should
            prevent re-compiling when costs or variables are reordered."""
            return str(x)

        # Count variables of each type.
        count_from_var_type = dict[type[Var], int]()
        for var in variables:
            increment = 1
            count_from_var_type[type(var)] = (
                count_from_var_type.get(type(var), 0) + increment
            )
        tangent_dim_sum = 0
        for var_type in sorted(count_from_var_type.keys(), key=_sort_key):
            tangent_start_from_var_type[var_type] = tangent_dim_sum
            tangent_dim_sum += var_type.tangent_dim * count_from_var_type[var_type]

        analyzed = AnalyzedLeastSquaresProblem(
            _targets=jnp.asarray(self.targets),
            _cost_counts=(len(variables),),
            _tangent_start_from_var_type=tangent_start_from_var_type,
            _tangent_dim=tangent_dim_sum,
            _residual_dim=tangent_dim_sum,
        )
        return analyzed


@jdc.pytree_dataclass
class AnalyzedLeastSquaresProblem:
    _targets: jax.Array
    _cost_counts: jdc.Static[tuple[int, ...]]
    _tangent_start_from_var_type: jdc.Static[dict[type[Var], int]]
    _tangent_dim: jdc.Static[int]
    _residual_dim: jdc.Static[int]

    def solve(
        self,
        initial_vals: jax.Array | None = None,
        *,
        linear_solver: Literal["conjugate_gradient", "cholmod", "dense_cholesky"] = "dense_cholesky",
        sparse_mode: Literal["blockrow", "coo", "csr"] = "blockrow",
        verbose: bool = True,
        return_summary: bool = False,
    ) -> jax.Array:
        if initial_vals is None:
            initial_vals = jnp.zeros(self._tangent_dim)
        # Create unified solver (handles both constrained and unconstrained).
        solver = NonlinearSolver(
            linear_solver,
            sparse_mode,
            verbose,
        )
        return solver.solve(
            problem=self, initial_vals=initial_vals, return_summary=return_summary
        )


@jdc.pytree_dataclass
class NonlinearSolver:
    """Helper class for solving using Gauss-Newton or Levenberg-Marquardt."""

    linear_solver: jdc.Static[
        Literal["conjugate_gradient", "cholmod", "dense_cholesky"]
    ]
    sparse_mode: jdc.Static[Literal["blockrow", "coo", "csr"]]
    verbose: jdc.Static[bool]

    @jdc.jit
    def solve(
        self,
        problem: AnalyzedLeastSquaresProblem,
        initial_vals: jax.Array,
        return_summary: jdc.Static[bool] = False,
    ) -> jax.Array:
        TRACES[0] += 1

        def residual(x):
            parts = []
            for var_type, start in problem._tangent_start_from_var_type.items():
                width = var_type.tangent_dim
                parts.append(x[start:start + width] - problem._targets[start:start + width])
            return jnp.concatenate(parts)

        vals = initial_vals
        for _ in range(3):
            J = jax.jacfwd(residual)(vals)
            vals = vals - jnp.linalg.solve(J.T @ J, J.T @ residual(vals))
        return vals


problem = LeastSquaresProblem([PointVar(0), ScaleVar(0)], targets=[1.0, 2.0, 3.0]).analyze()
for start in (jnp.zeros(3), jnp.ones(3), jnp.array([5.0, -1.0, 0.5])):
    out = problem.solve(start)
print("solution:", out, "traces of NonlinearSolver.solve:", TRACES[0])
assert TRACES[0] == 1, TRACES
