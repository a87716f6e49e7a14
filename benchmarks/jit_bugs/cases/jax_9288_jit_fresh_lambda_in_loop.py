"""Source: https://github.com/jax-ml/jax/issues/9288
Library: plain-jax
Reported: the JIT tutorial's "don't do this" example, jax.jit(unjitted_loop_body) inside a while loop, is in fact compiled only once, because the module-level function is the same object each time; written with a lambda, jax.jit(lambda x: unjitted_loop_body(x)) inside the loop recompiles on every iteration.
Transcribed: the report's second (lambda) snippet, the one that recompiles; its first snippet is the same loop with jax.jit(unjitted_loop_body).
Hard: the callable given to jax.jit, which keys jit's cache, is a lambda made afresh on every pass of the loop; jit-fresh-function is the sanitizer's code for it.
"""
import jax

def unjitted_loop_body(prev_i):
  print("i am being jitted")
  return prev_i + 1

def g_inner_jitted_poorly(x, n):
  i = 0
  while i < n:
    # Don't do this!
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)  # expect: jit-fresh-function
  return x + i
g_inner_jitted_poorly(10, 3)
