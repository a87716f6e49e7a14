"""Source: https://github.com/google-deepmind/optax/blob/0f0fd93df6126b6bcc01e4bbf676468d2f4b7838/examples/lbfgs.ipynb
Library: plain-jax
Correct: optax's L-BFGS example wraps `optax.lbfgs()` in a solver, `run_lbfgs`, that defines `step` and `continuing_criterion` and hands them to `jax.lax.while_loop` once per solve; the whole optimisation runs inside that one loop (no Python loop over updates), so each solve compiles once. The notebook calls it once per problem (the Rosenbrock function with `optax.lbfgs()`, then with `print_info()` chained in front), and each problem is a different objective or optimiser, a different program that must compile anyway. Unlike the eager update loop of optax issue 1171, nothing here calls the while_loop again for the same problem.
Transcribed: the notebook's `run_lbfgs`, `InfoState`, `print_info` and the two Rosenbrock cells, unchanged; the earlier cells (the eager `scale_by_lbfgs` and linesearch loops) and the Zakharov debugging cells are left out; `optax.tree_utils` is imported as `otu` as in the notebook; chex is not installed, so `InfoState.iter_num` is annotated `Any` instead of `chex.Numeric`.
"""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

import optax
import optax.tree_utils as otu


def run_lbfgs(init_params, fun, opt, max_iter, tol):
  value_and_grad_fun = optax.value_and_grad_from_state(fun)

  def step(carry):
    params, state = carry
    value, grad = value_and_grad_fun(params, state=state)
    updates, state = opt.update(
        grad, state, params, value=value, grad=grad, value_fn=fun
    )
    params = optax.apply_updates(params, updates)
    return params, state

  def continuing_criterion(carry):
    _, state = carry
    iter_num = otu.tree_get(state, 'count')
    grad = otu.tree_get(state, 'grad')
    err = otu.tree_l2_norm(grad)
    return (iter_num == 0) | ((iter_num < max_iter) & (err >= tol))

  init_carry = (init_params, opt.init(init_params))
  final_params, final_state = jax.lax.while_loop(
      continuing_criterion, step, init_carry
  )
  return final_params, final_state


def fun(w):
  return jnp.sum(100.0 * (w[1:] - w[:-1] ** 2) ** 2 + (1.0 - w[:-1]) ** 2)

opt = optax.lbfgs()
init_params = jnp.zeros((8,))
print(
    f'Initial value: {fun(init_params):.2e} '
    f'Initial gradient norm: {otu.tree_l2_norm(jax.grad(fun)(init_params)):.2e}'
)
final_params, _ = run_lbfgs(init_params, fun, opt, max_iter=50, tol=1e-3)
print(
    f'Final value: {fun(final_params):.2e}, '
    f'Final gradient norm: {otu.tree_l2_norm(jax.grad(fun)(final_params)):.2e}'
)


class InfoState(NamedTuple):
  iter_num: Any  # chex.Numeric in the notebook


def print_info():
  def init_fn(params):
    del params
    return InfoState(iter_num=0)

  def update_fn(updates, state, params, *, value, grad, **extra_args):
    del params, extra_args

    jax.debug.print(
        'Iteration: {i}, Value: {v}, Gradient norm: {e}',
        i=state.iter_num,
        v=value,
        e=otu.tree_l2_norm(grad),
    )
    return updates, InfoState(iter_num=state.iter_num + 1)

  return optax.GradientTransformationExtraArgs(init_fn, update_fn)


def fun(w):
  return jnp.sum(100.0 * (w[1:] - w[:-1] ** 2) ** 2 + (1.0 - w[:-1]) ** 2)


opt = optax.chain(print_info(), optax.lbfgs())
init_params = jnp.zeros((8,))
print(
    f'Initial value: {fun(init_params):.2e} '
    f'Initial gradient norm: {otu.tree_l2_norm(jax.grad(fun)(init_params)):.2e}'
)
final_params, _ = run_lbfgs(init_params, fun, opt, max_iter=50, tol=1e-3)
print(
    f'Final value: {fun(final_params):.2e}, '
    f'Final gradient norm: {otu.tree_l2_norm(jax.grad(fun)(final_params)):.2e}'
)
