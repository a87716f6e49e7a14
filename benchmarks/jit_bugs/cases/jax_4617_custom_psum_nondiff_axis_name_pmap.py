"""Source: https://github.com/jax-ml/jax/issues/4617
Library: plain-jax
Correct: the reporter's program, which "appears to be valid" (mattjj: the issue is a documentation bug about argument order, not the code): a `jax.custom_vjp` keeps the pmap axis name, a string, in `nondiff_argnums=(1,)`, and `jax.pmap(jax.grad(loss_fn), 'i')` differentiates through it on 8 (host) devices. A string is exactly what nondiff positions are for; a checker that treats a `custom_vjp` like a jitted function and its other arguments as traced, or that asks nondiff values to be arrays, would flag a correct program.
Transcribed: the program from the issue description as posted, unchanged but for a final print of the result's shape.
"""
import os
os.environ["XLA_FLAGS"] = '--xla_force_host_platform_device_count=8'

import functools

import jax
import jax.numpy as jnp
import numpy as np

@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def custom_psum(x, axis_name):
  return x

def fwd(x, axis_name):
  print('fwd_arg0', x)
  print('fwd_arg1', axis_name)
  return custom_psum(x, axis_name), None

def bwd(axis_name, res, g):
  print('bwd_arg0', axis_name)
  print('bwd_arg1', res)
  print('bwd_arg2', g)
  del axis_name, res
  return (g,)

custom_psum.defvjp(fwd, bwd)

def loss_fn(x):
  return jnp.sum(custom_psum(x, 'i'))

out = jax.pmap(jax.grad(loss_fn), 'i')(np.random.random((8, 2, 3)))
print(out.shape)
