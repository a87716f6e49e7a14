"""Source: https://docs.jax.dev/en/latest/jit-compilation.html
Library: plain-jax
Reported: the "JIT and caching" section of JAX's JIT tutorial warns against calling jax.jit on temporary functions defined inside loops: a partial or a lambda made in each iteration is a new function, so the loop compiles again every time, while jax.jit of the module-level function in the same loop finds its cached compilation.
Transcribed: the section's code cell (docs/jit-compilation.md in jax-ml/jax at commit cec06d116c05f0d52adfceee3d3b730fdbcb0ce5), with `import jax` added and the three IPython `%timeit ...` lines replaced by plain calls of the same expressions. Observed (jax 0.10.2, CPU; a trace counter added to unjitted_loop_body in a scratch copy): g_inner_jitted_partial(10, 20) traces 20 times, g_inner_jitted_lambda(10, 20) 20 times, g_inner_jitted_normal(10, 20) once.
Hard: the partial has no bound arguments (equal in value each iteration); jax.jit(unjitted_loop_body) in the third loop is the same pattern on a module-level function and must not be reported.
"""
import jax
from functools import partial

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_partial(x, n):
  i = 0
  while i < n:
    # Don't do this! each time the partial returns
    # a function with different hash
    i = jax.jit(partial(unjitted_loop_body))(i)  # expect: jit-fresh-function
  return x + i

def g_inner_jitted_lambda(x, n):
  i = 0
  while i < n:
    # Don't do this!, lambda will also return
    # a function with a different hash
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)  # expect: jit-fresh-function
  return x + i

def g_inner_jitted_normal(x, n):
  i = 0
  while i < n:
    # this is OK, since JAX can find the
    # cached, compiled function
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

print("jit called in a loop with partials:")
g_inner_jitted_partial(10, 20).block_until_ready()

print("jit called in a loop with lambdas:")
g_inner_jitted_lambda(10, 20).block_until_ready()

print("jit called in a loop with caching:")
g_inner_jitted_normal(10, 20).block_until_ready()
