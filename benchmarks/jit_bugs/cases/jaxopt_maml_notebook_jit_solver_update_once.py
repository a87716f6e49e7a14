"""Source: https://github.com/google/jaxopt/blob/a86b275f4e121c08fdf7ee7ffbd530e6445e497d/docs/notebooks/implicit_diff/maml.md
Library: plain-jax
Correct: the MAML notebook builds one `OptaxSolver` and one initial state, then jits the solver's bound method once, `jitted_update = jax.jit(solver.update)`, before the training loop, and calls `jitted_update(meta_params, state, data_train, data_test)` on every iteration. The solver is never changed after it is built and the bound method is jitted a single time, so the jit traces once and every later step hits its cache (commit f94e816 later removed the jit only as unnecessary, since `update` already jits its internals). A rule that reports every `jax.jit(obj.method)` would flag it; running it here, 30 steps trace `update` once and the loss falls.
Transcribed: the notebook's final training cell, with `OptaxSolver` replaced by a minimal `@dataclass(eq=False)` stand-in (fields `opt`, `fun`, `maxiter`, `has_aux`, `tol`; `init_state` and `update` built on optax, the state created with strongly typed counters as jaxopt does, `update` taking `params, state, *args` as jaxopt's does and returning `(params, state)` with `state.value`); `outer_loss` (a vmapped inner GradientDescent over sinusoid tasks in a flax model) is replaced by a least-squares loss with an aux output, `generate_task_batch` by a random linear-regression batch of the same call shape, `tqdm` by `range`; `maxiter` is cut to 30 and a trace counter was added.
"""
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import optax
from jax import random

TRACES = [0]


class OptaxState(NamedTuple):
  iter_num: Any
  value: Any
  error: Any
  internal_state: Any
  aux: Any


@dataclass(eq=False)
class OptaxSolver:
  """Stand-in for jaxopt.OptaxSolver."""
  fun: Callable
  opt: Any
  maxiter: int = 500
  has_aux: bool = False
  tol: float = 1e-3

  def init_state(self, init_params, *args, **kwargs):
    value, aux = self.fun(init_params, *args, **kwargs)
    return OptaxState(iter_num=jnp.asarray(0, jnp.int32), value=value, error=jnp.asarray(jnp.inf, jnp.float32),
                      internal_state=self.opt.init(init_params), aux=aux)

  def update(self, params, state, *args, **kwargs):
    TRACES[0] += 1
    (value, aux), grad = jax.value_and_grad(self.fun, has_aux=self.has_aux)(params, *args, **kwargs)
    delta, opt_state = self.opt.update(grad, state.internal_state, params)
    params = optax.apply_updates(params, delta)
    error = optax.global_norm(grad)
    return params, OptaxState(iter_num=state.iter_num + 1, value=value, error=error,
                              internal_state=opt_state, aux=aux)


def generate_task_batch(key, meta_batch_size, n_samples_train, n_samples_test):
  k1, k2, k3 = random.split(key, 3)
  w = random.normal(k1, (meta_batch_size, 3))
  x_train = random.normal(k2, (meta_batch_size, n_samples_train, 3))
  x_test = random.normal(k3, (meta_batch_size, n_samples_test, 3))
  data_train = (x_train, jnp.einsum("bnd,bd->bn", x_train, w))
  data_test = (x_test, jnp.einsum("bnd,bd->bn", x_test, w))
  return data_train, data_test, w, None


def outer_loss(meta_params, data_train, data_test):
  samples_test, targets_test = data_test
  prediction = samples_test @ meta_params
  loss = jnp.mean((prediction - targets_test) ** 2)
  return loss, prediction


key, subkey = random.split(random.PRNGKey(0), 2)

meta_params = jnp.zeros(3)

gradient_subopt = []
outer_losses = []

solver = OptaxSolver(
  opt=optax.adam(1e-1),
  fun=outer_loss,
  maxiter=30,
  has_aux=True,
  tol=1e-6,
)
data_train, data_test, phase, amplitude = generate_task_batch(
  key,
  meta_batch_size=2,
  n_samples_train=10,
  n_samples_test=10,
)
state = solver.init_state(meta_params, data_train, data_test)
jitted_update = jax.jit(solver.update)

pbar = range(solver.maxiter)

for it in pbar:
  key, subkey = random.split(key)
  data_train, data_test, phase, amplitude = generate_task_batch(
    key,
    meta_batch_size=2,
    n_samples_train=10,
    n_samples_test=10,
  )
  meta_params, state = jitted_update(meta_params, state, data_train, data_test)
  outer_losses.append(float(state.value))

print("traces of update:", TRACES[0], "loss first/last:", outer_losses[0], outer_losses[-1])
assert TRACES[0] == 1, TRACES
assert outer_losses[-1] < outer_losses[0]
print("OK: the solver's update was jitted once and traced once")
