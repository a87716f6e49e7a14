"""Source: https://github.com/jax-ml/jax/pull/1605
Library: plain-jax
Reported: "fix a leak where compiled results lived too long": "The original repro @levskaya showed us was essentially this OOM ... Even though f was being rebound on every iteration, the cache entries corresponding to the previous iterations of the loop were sticking around." Each iteration jits a new lambda, so jit's cache (keyed on the function object) misses every time: the same computation is traced and compiled forty times, each executable holding its own large constant. The pull request makes the cache weakly keyed on the function, so dropped functions free their entries; the recompilation itself stays, as it must for a new function object.
Transcribed: the repro from the pull request's description, with `np` bound to `jax.numpy` and `jit` imported from jax; the constant is (3, 1024, 1024) instead of (300, 1024, 1024) and the loop runs 5 times instead of 40, so that the case runs on CPU; a trace counter inside the lambda (through a helper it calls) and a print per iteration were added.
Hard: the lambda is written inline as `jit`'s argument inside a `for` loop and rebound to the same name each iteration, then called once.
"""
from jax import jit
import jax.numpy as np

traces = 0


def _traced(x):
  global traces
  traces += 1
  return x


for i in range(5):
  before = traces
  f = jit(lambda: _traced(1. * np.ones((3, 1024, 1024))))  # expect: jit-fresh-function
  f().block_until_ready()
  print(f"iteration {i}: traced again: {traces > before}")
