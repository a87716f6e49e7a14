"""Source: https://github.com/google/jaxopt/pull/113
Library: plain-jax
Reported: "Prevent recompilation of loops in `solver.run` if executing without jit": "An issue was found whereby executing the `run` method of `IterativeSolver`s without `jit` would cause `lax.while_loop` or `lax.scan` to be retraced in each subsequence call. This was due to `cond_fun` and `body_fun` being (re)defined inside the private method `_run` of `IterativeSolver`." `_run` defines both as local closures and hands them to `loop.while_loop`, which jits its loop implementation with `static_argnums=(0, 1, 3)`, so every `run` passes two new function objects in static positions and compiles the loop again.
Transcribed: `_while_loop_scan`, `_while_loop_python`, `_while_loop_lax` and `while_loop` from jaxopt/_src/loop.py, and `IterativeSolver._get_loop_options`/`_run` from jaxopt/_src/base.py, at 09bda05^ (the parent of the fix); `run` is cut to a call of `_run` (the implicit-differentiation wrapper is left out), `OptStep` is copied from base.py, and a minimal gradient-descent solver (`eq=False` dataclass, as jaxopt's solvers are) with a driver that runs it three times was added; `loop.while_loop` is called by its bare name, as everything is in one file.
Hard: the fresh closures are made in `_run` and reach the jitted function's static positions only through `while_loop`'s parameters, where `jax.jit(fun, static_argnums=(0, 1, 3))` wraps a module-level function chosen at run time and calls it at once.
"""
import dataclasses
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


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

  return jax.lax.while_loop(_cond_fun, _body_fun, (0, init_val))[1]


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

  if jit:
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

  def _run(self,
           init_params: Any,
           *args,
           **kwargs) -> OptStep:

    def cond_fun(pair):
      _, state = pair
      if self.verbose:
        print(state.error)
      return state.error > self.tol

    def body_fun(pair):
      params, state = pair
      return self.update(params, state, *args, **kwargs)

    state = self.init_state(init_params, *args, **kwargs)

    if self.maxiter == 0:
      return OptStep(params=init_params, state=state)

    # We unroll the very first iteration. This allows `init_val` and `body_fun`
    # below to have the same output type, which is a requirement of
    # lax.while_loop and lax.scan.
    opt_step = self.update(init_params, state, *args, **kwargs)

    jit, unroll = self._get_loop_options()

    return while_loop(cond_fun=cond_fun, body_fun=body_fun,  # expect: static-fresh-callable
                      init_val=opt_step, maxiter=self.maxiter - 1, jit=jit,
                      unroll=unroll)

  def run(self, init_params: Any, *args, **kwargs) -> OptStep:
    return self._run(init_params, *args, **kwargs)


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
  implicit_diff: bool = False
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
for x in (1.0, 2.0, 3.0):
  print(solver.run(jnp.zeros(3), jnp.full(3, x)).params)
