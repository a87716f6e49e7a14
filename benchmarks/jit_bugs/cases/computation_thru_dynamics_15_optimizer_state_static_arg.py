"""Source: https://github.com/google-research/computation-thru-dynamics/issues/15
Library: plain-jax
Reported: the fixed point finder passes the optimizer state, an OptimizerState namedtuple holding lists, in a static position and fails with 'Non-hashable static arguments are not supported ... unhashable type: list'.
Transcribed: the code the report's traceback quotes, from fixed_point_finder/fixed_points.py at commit 68eeb9c61f32a74acdffcbfb2764ee7d30d18e8d: optimize_fp_core, its jit, and optimize_fps without its printing and early stopping; jax.experimental.optimizers became jax.example_libraries.optimizers (moved since); a one-line rnn_fun, the hyperparameters and a call were added.
Hard: opt_state is an OptimizerState NamedTuple built by jax.example_libraries.optimizers; its packed_state field holds a list.
"""
import jax.numpy as np
from jax import grad, jit, lax, vmap
from jax.example_libraries import optimizers

import numpy as onp


def get_fp_loss_fun(rnn_fun):
  batch_rnn_fun = vmap(rnn_fun, in_axes=(0,))
  return jit(lambda h : np.mean((h - batch_rnn_fun(h))**2, axis=1))


def get_total_fp_loss_fun(rnn_fun):
  fp_loss_fun = get_fp_loss_fun(rnn_fun)
  return jit(lambda h : np.mean(fp_loss_fun(h)))


def optimize_fp_core(batch_idx_start, num_batches, update_fun, opt_state):
  def run_update(batch_idx, opt_state):
    opt_state = update_fun(batch_idx, opt_state)
    return opt_state

  lower = batch_idx_start
  upper = batch_idx_start + num_batches
  return lax.fori_loop(lower, upper, run_update, opt_state)


optimize_fp_core_jit = jit(optimize_fp_core, static_argnums=(1, 2, 3))


def optimize_fps(rnn_fun, fp_candidates, hps, do_print=True):
  total_fp_loss_fun = get_total_fp_loss_fun(rnn_fun)

  def get_update_fun(opt_update, get_params):
    def update(i, opt_state):
      params = get_params(opt_state)
      grads = grad(total_fp_loss_fun)(params)    
      return opt_update(i, grads, opt_state)

    return update

  # Build some functions used in optimization.
  decay_fun = optimizers.exponential_decay(hps['step_size'],
                                           hps['decay_steps'],
                                           hps['decay_factor'])
  opt_init, opt_update, get_params = optimizers.adam(step_size=decay_fun,
                                                     b1=hps['adam_b1'],
                                                     b2=hps['adam_b2'],
                                                     eps=hps['adam_eps'])
  opt_state = opt_init(fp_candidates)
  update_fun = get_update_fun(opt_update, get_params)

  batch_size = fp_candidates.shape[0]
  num_batches = hps['num_batches']
  print_every = hps['opt_print_every']
  num_opt_loops = int(num_batches / print_every)
  fps = get_params(opt_state)
  for oidx in range(num_opt_loops):
    batch_idx_start = oidx * print_every
    opt_state = optimize_fp_core_jit(batch_idx_start, print_every, update_fun,
                                     opt_state)  # expect: static-unhashable
    fps = get_params(opt_state)
  return fps


hps = {'step_size': 0.2, 'decay_steps': 1, 'decay_factor': 0.9999,
       'adam_b1': 0.9, 'adam_b2': 0.999, 'adam_eps': 1e-5,
       'num_batches': 20, 'opt_print_every': 10}
optimize_fps(np.tanh, onp.random.randn(8, 3), hps)
