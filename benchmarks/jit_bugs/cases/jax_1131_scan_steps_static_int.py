"""Source: https://github.com/jax-ml/jax/issues/1131
Library: plain-jax
Correct: g is jitted once at module level with static_argnums=(1,) and given a plain int number of steps; each new int compiles once, as intended (the loop times the first and second call for each length). A checker must not report the static int passed inside the loop, nor the jit of a module-level function. The report is about lax.scan compile time growing with the number of steps, which is outside the static rules.
Transcribed: the colab's pip install line is left out; `import time` was added and time.clock (removed from Python) is time.perf_counter.
"""
import time

import jax.numpy as np
from jax import lax
from jax import jit


def f(x, s):
  for i in range(2000):
    x = x + 1.0
  return x, np.array([0])

def g(x, steps):
  xs = lax.iota(np.int32, steps)
  return lax.scan(f, x, xs)[0]

q = jit(g, static_argnums=(1,))

for p in range(1, 14):
  x = 2 ** p

  time1 = time.perf_counter()
  temp = q(np.array(2.0), x).block_until_ready()
  time2 = time.perf_counter()
  temp = q(np.array(2.0), x).block_until_ready()
  time3 = time.perf_counter()

  first_run_time = (time2 - time1)
  second_run_time = (time3 - time2)
  compile_time = first_run_time - second_run_time

  print('x = {}, compile time = {} (run times = {}, {})'.format(
      x, compile_time, first_run_time, second_run_time))
