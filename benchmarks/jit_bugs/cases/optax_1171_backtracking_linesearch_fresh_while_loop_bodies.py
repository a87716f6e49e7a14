"""Source: https://github.com/google-deepmind/optax/issues/1171
Library: plain-jax
Reported: "backtracking linesearch huge slow down -- recompiling functions every run of `update_fn`?": with `optax.scale_by_backtracking_linesearch` driven from a Python loop (the transform's own docstring example, no jit around `solver.update`), every step went "from minutes per step" because `update_fn` defines `cond_fn` and `body_fn` afresh on each call and hands them to `jax.lax.while_loop`, which outside any jit caches on the identity of those functions and so traces and compiles the loop again at every update. The reporter: "I gave the 'while' function some global functions ... and it no longer caused recompilation. Then I changed the local `cond_fn` ... once I gave that to 'while' it started recompiling each call again."
Transcribed: `scale_by_backtracking_linesearch` from optax/_src/linesearch.py (optax 0.2.8, whose `update_fn` still defines `cond_fn`/`body_fn` locally as at the report), trimmed to the `store_grad=False` path: the `verbose` printing, the `store_grad` branch and the extra-argument checking (`_extract_fns_kwargs`) dropped, `optax.tree` helpers replaced by `jax.tree.map`/`jnp.vdot` on a single-array parameter; the state NamedTuples copied. The driver is the docstring's first example (sgd chained with the linesearch, a least-squares `fn(params, x, y)`) with a backend-compile counter added.
Hard: the functions are given to `jax.lax.while_loop`, not to `jax.jit`, from inside the closure `update_fn` that `scale_by_backtracking_linesearch` returns; the Python loop that calls it repeatedly is in the driver, through `optax.chain`'s update.
"""
import functools
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import optax
from optax._src import base

compiles = 0


def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


class BacktrackingLinesearchInfo(NamedTuple):
  num_linesearch_steps: Any  # int
  decrease_error: Any  # float


class ScaleByBacktrackingLinesearchState(NamedTuple):
  learning_rate: Any
  value: Any
  grad: Any
  info: BacktrackingLinesearchInfo


class BacktrackingLineSearchState(NamedTuple):
  """State during the inner loop of a backtracking line-search."""

  learning_rate: Any  # float
  new_value: Any  # float
  new_grad: Any
  decrease_error: Any
  iter_num: Any  # int


def scale_by_backtracking_linesearch(
    max_backtracking_steps,
    slope_rtol=1e-4,
    decrease_factor=0.8,
    increase_factor=1.5,
    max_learning_rate=1.0,
    atol=0.0,
    rtol=0.0,
):

  def init_fn(params):
    val_dtype = jnp.real(jnp.empty((), dtype=params.dtype)).dtype
    return ScaleByBacktrackingLinesearchState(
        learning_rate=jnp.array(1.0, dtype=val_dtype),
        value=jnp.array(jnp.inf, dtype=val_dtype),
        grad=None,
        info=BacktrackingLinesearchInfo(
            num_linesearch_steps=jnp.asarray(0),
            decrease_error=jnp.array(jnp.inf, dtype=val_dtype),
        ),
    )

  def _compute_decrease_error(stepsize, slope, value, new_value):
    decrease_error = (
        new_value - (1.0 + rtol) * value - stepsize * slope_rtol * slope
    )
    decrease_error = jnp.where(
        jnp.isnan(decrease_error), jnp.inf, decrease_error
    )
    return jnp.maximum(decrease_error, 0.0)

  def update_fn(updates, state, params, *, value, grad, value_fn, **extra_args):
    fn_kwargs = extra_args

    # Slope of lr -> value_fn(params + lr * updates) at lr = 0
    slope = jnp.real(jnp.vdot(updates, grad))

    def cond_fn(
        search_state: BacktrackingLineSearchState,
    ):
      """Whether to stop the line-search inner loop."""
      decrease_error = search_state.decrease_error
      iter_num = search_state.iter_num
      return (~(decrease_error <= atol)) & (iter_num <= max_backtracking_steps)

    def body_fn(
        search_state: BacktrackingLineSearchState,
    ) -> BacktrackingLineSearchState:
      """Line-search inner loop step."""
      learning_rate = search_state.learning_rate
      new_grad = search_state.new_grad
      iter_num = search_state.iter_num
      # We start decreasing the learning rate after the first iteration
      # and up until the criterion is satisfied.
      learning_rate = jnp.where(
          iter_num > 0, decrease_factor * learning_rate, learning_rate
      )
      new_params = params + learning_rate * updates

      value_fn_ = functools.partial(value_fn, **fn_kwargs)
      # Here we just compute the value and leave the gradient as is
      new_value = value_fn_(new_params)
      decrease_error = _compute_decrease_error(
          learning_rate, slope, value, new_value
      )
      new_search_state = BacktrackingLineSearchState(
          learning_rate=learning_rate,
          new_value=new_value,
          new_grad=new_grad,
          decrease_error=decrease_error,
          iter_num=iter_num + 1,
      )
      return jax.tree.map(
          lambda n, o: jnp.asarray(n, dtype=jnp.asarray(o).dtype),
          new_search_state, search_state)

    # We start with a guess candidate learning rate that may be larger than
    # the current one but no larger than the maximum one.
    learning_rate = jnp.minimum(
        increase_factor * state.learning_rate, max_learning_rate
    )
    search_state = BacktrackingLineSearchState(
        learning_rate=learning_rate,
        new_value=value,
        new_grad=jnp.zeros_like(params),
        decrease_error=jnp.array(jnp.inf),
        iter_num=0,
    )
    search_state = jax.lax.while_loop(cond_fn, body_fn, search_state)  # expect: jit-fresh-function

    new_value = search_state.new_value
    new_learning_rate = jnp.where(
        jnp.isinf(search_state.decrease_error), 0.0, search_state.learning_rate
    )
    new_updates = new_learning_rate * updates
    info = BacktrackingLinesearchInfo(
        num_linesearch_steps=search_state.iter_num,
        decrease_error=search_state.decrease_error,
    )
    return new_updates, ScaleByBacktrackingLinesearchState(
        learning_rate=new_learning_rate,
        value=new_value,
        grad=None,
        info=info,
    )

  return base.GradientTransformationExtraArgs(init_fn, update_fn)


solver = optax.chain(
    optax.sgd(learning_rate=1.),
    scale_by_backtracking_linesearch(max_backtracking_steps=15)
)
# Function with additional inputs other than params
def fn(params, x, y): return optax.l2_loss(x.dot(params), y)
params = jnp.array([1., 2., 3.])
x, y = jnp.array([3., 2., 1.]), jnp.array(0.)
xs, ys = jnp.tile(x, (5, 1)), jnp.tile(y, (5,))
opt_state = solver.init(params)
print('Objective function: {:.2E}'.format(fn(params, x, y)))
value_and_grad = jax.jit(jax.value_and_grad(fn))
per_step = []
for x, y in zip(xs, ys):
  value, grad = value_and_grad(params, x, y)
  before = compiles
  updates, opt_state = solver.update(
      grad,
      opt_state,
      params,
      value=value,
      grad=grad,
      value_fn=fn,
      x=x,
      y=y
  )
  per_step.append(compiles - before)
  params = optax.apply_updates(params, updates)
  print('Objective function: {:.2E}'.format(fn(params, x, y)))
print("backend compilations inside each solver.update:", per_step)
