"""Source: https://github.com/google/jaxopt/issues/563
Library: plain-jax
Reported: "Unnecessary recompilation of _while_loop_lax": commit ed1febe (https://github.com/google/jaxopt/commit/ed1febef279de5e1120af70dff04261b61175383) "claims that jitting `_while_loop_lax` is redundant. However, this change also seems to prevent the result from being cached, causing recompilation of loops like" `IterativeSolver._run`'s `loop.while_loop` call; "Reverting ed1febe drastically reduces compilation times for my use case". Without the outer jit, `_while_loop_lax` hands `jax.lax.while_loop` the closures `_cond_fun` and `_body_fun` it defines afresh on every call, so each `solver.run` outside jit traces and compiles the loop again (before the commit, the jit with `static_argnums=(0, 1, 3)` cached on the solver's bound methods and `maxiter`).
Transcribed: `_while_loop_scan`, `_while_loop_python`, `_while_loop_lax` and `while_loop` from jaxopt/_src/loop.py after ed1febe (as at 58bac0a, the commit the report links), and `IterativeSolver._get_loop_options`/`_cond_fun`/`_body_fun`/`_make_zero_step`/`_run` from jaxopt/_src/base.py there; `run` is cut to a call of `_run` (the `custom_root` implicit-differentiation wrapper is left out, `implicit_diff=True` kept so the loop options pick `_while_loop_lax` as jaxopt's default does), `tree_util.tree_map` is `jax.tree_util.tree_map`; `OptStep` copied; a minimal gradient-descent solver (`eq=False` dataclass, as jaxopt's solvers are) and a driver that runs it three times with a backend-compile counter were added; `loop.while_loop` is called by its bare name, as everything is in one file.
Hard: the fresh closures are made inside `_while_loop_lax`, which `while_loop` picks at run time from the `jit`/`unroll` options and calls un-jitted; they go to `jax.lax.while_loop`, not to `jax.jit`; the repeated `run` calls are in the driver, through `_run` and `while_loop`.
"""
import functools
import dataclasses
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp

compiles = 0


def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


def _while_loop_scan(cond_fun, body_fun, init_val, max_iter):
  """Scan-based implementation (jit ok, reverse-mode autodiff ok)."""
  def _iter(val):
    next_val = body_fun(val)
    next_cond = cond_fun(next_val)
    return next_val, next_cond

  def _fun(tup, it):
    val, cond = tup
    # When cond is met, we start doing no-ops.
    return jax.lax.cond(cond, _iter, lambda x: (x, False), val), it

  init = (init_val, cond_fun(init_val))
  return jax.lax.scan(_fun, init, None, length=max_iter)[0][0]


def _while_loop_python(cond_fun, body_fun, init_val, maxiter):
  """Python based implementation (no jit, reverse-mode autodiff ok)."""
  val = init_val
  for _ in range(maxiter):
    cond = cond_fun(val)
    if not cond:
      # When condition is met, break (not jittable).
      break
    val = body_fun(val)
  return val


def _while_loop_lax(cond_fun, body_fun, init_val, maxiter):
  """lax.while_loop based implementation (jit by default, no reverse-mode)."""
  def _cond_fun(_val):
    it, val = _val
    return jnp.logical_and(cond_fun(val), it <= maxiter - 1)

  def _body_fun(_val):
    it, val = _val
    val = body_fun(val)
    return it+1, val

  return jax.lax.while_loop(_cond_fun, _body_fun, (0, init_val))[1]  # expect: jit-fresh-function


def while_loop(cond_fun, body_fun, init_val, maxiter, unroll=False, jit=False):
  """A while loop with a bounded number of iterations."""

  if unroll:
    if jit:
      fun = _while_loop_scan
    else:
      fun = _while_loop_python
  else:
    if jit:
      fun = _while_loop_lax
    else:
      raise ValueError("unroll=False and jit=False cannot be used together")

  if jit and fun is not _while_loop_lax:
    # jit of a lax while_loop is redundant, and this jit would only
    # constrain maxiter to be static where it is not required.
    fun = jax.jit(fun, static_argnums=(0, 1, 3))

  return fun(cond_fun, body_fun, init_val, maxiter)


class OptStep(NamedTuple):
  params: Any
  state: Any


class IterativeSolver:
  """Base class for iterative solvers."""

  def _get_loop_options(self):
    """Returns jit and unroll options based on user-provided attributes."""

    if self.jit == "auto":
      # We always jit unless verbose mode is enabled.
      jit = not self.verbose
    else:
      jit = self.jit

    if self.unroll == "auto":
      # We unroll when implicit diff is disabled or when jit is disabled.
      unroll = not getattr(self, "implicit_diff", True) or not jit
    else:
      unroll = self.unroll

    return jit, unroll

  def _cond_fun(self, inputs):
    _, state = inputs[0]
    if self.verbose:
      print("error:", state.error)
    return state.error > self.tol

  def _body_fun(self, inputs):
    (params, state), (args, kwargs) = inputs
    return self.update(params, state, *args, **kwargs), (args, kwargs)

  def _make_zero_step(self, init_params, state) -> OptStep:
    if isinstance(init_params, OptStep):
      return OptStep(params=init_params.params, state=state)
    else:
      return OptStep(params=init_params, state=state)

  def _run(self,
           init_params: Any,
           *args,
           **kwargs) -> OptStep:
    state = self.init_state(init_params, *args, **kwargs)

    # We unroll the very first iteration. This allows `init_val` and `body_fun`
    # below to have the same output type, which is a requirement of
    # lax.while_loop and lax.scan.
    zero_step = self._make_zero_step(init_params, state)

    opt_step = self.update(init_params, state, *args, **kwargs)
    init_val = (opt_step, (args, kwargs))

    jit, unroll = self._get_loop_options()

    many_step = while_loop(
        cond_fun=self._cond_fun, body_fun=self._body_fun,
        init_val=init_val, maxiter=self.maxiter - 1, jit=jit,
        unroll=unroll)[0]

    return jax.tree_util.tree_map(
        functools.partial(_where, self.maxiter == 0), zero_step, many_step,
        is_leaf=lambda x: x is None)  # state attributes can sometimes be None

  def run(self, init_params: Any, *args, **kwargs) -> OptStep:
    return self._run(init_params, *args, **kwargs)


def _where(cond, x, y):
  if x is None: return y
  if y is None: return x
  return jnp.where(cond, x, y)


class GDState(NamedTuple):
  iter_num: jax.Array
  error: jax.Array


@dataclasses.dataclass(eq=False)
class GradientDescent(IterativeSolver):
  fun: Callable
  stepsize: float = 0.1
  maxiter: int = 20
  tol: float = 1e-3
  verbose: bool = False
  implicit_diff: bool = True
  jit: Any = "auto"
  unroll: Any = "auto"

  def init_state(self, init_params, *args, **kwargs) -> GDState:
    return GDState(iter_num=jnp.asarray(0), error=jnp.asarray(jnp.inf))

  def update(self, params, state, *args, **kwargs) -> OptStep:
    grad = jax.grad(self.fun)(params, *args, **kwargs)
    return OptStep(params - self.stepsize * grad,
                   GDState(state.iter_num + 1, jnp.linalg.norm(grad)))


def fun(w, x):
  return jnp.sum((w - x) ** 2)


solver = GradientDescent(fun=fun)
per_run = []
for x in (1.0, 2.0, 3.0):
  before = compiles
  print(solver.run(jnp.zeros(3), jnp.full(3, x)).params)
  per_run.append(compiles - before)
print("backend compilations per solver.run:", per_run)
