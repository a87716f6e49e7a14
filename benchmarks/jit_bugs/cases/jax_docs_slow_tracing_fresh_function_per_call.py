"""Source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html#gotcha-dynamically-recreating-function-objects
Library: plain-jax
Reported: JAX's "Debugging slow JAX tracing and XLA compilation" guide, section "Common Gotchas That Trigger Cache Misses": `jax.jit(custom_einsum)(x, y)` where `custom_einsum` is defined inside `top_function` ("Gotcha: Dynamically Recreating Function Objects") and `jax.jit(lambda a, b: add_multiply(a, b, scale=scale_factor))(x, y)` inside `top_function` ("Gotcha: JIT Compiling a Lambda Instead of functools.partial") are marked BAD: the function object is new on every call of `top_function`, so JAX misses its tracing cache and retraces every time. The page then presents `jax.jit(functools.partial(add_multiply, scale=scale_factor))(x, y)` as the GOOD fix ("JAX correctly unwraps functools.partial and hits the tracing cache!"), but with jax 0.10.2 that variant retraces on every call too (measured: 5 traces for 5 calls), as the JIT tutorial's own partial example says.
Transcribed: the section's three `top_function` variants (docs/debugging/slow_tracing_compilation.md in jax-ml/jax at commit e2f2e9e21d6723efc4c4e16e5e070dbc7e76a676), renamed top_function_def / top_function_lambda / top_function_partial so they can live in one file; the page's `def top_function(...)` placeholder signature became `(x, y)`; `import jax`, `import jax.numpy as jnp`, trace counters in custom_einsum and add_multiply and loops calling each variant five times were added.
Hard: each jax.jit call is made afresh inside a function that the loop at the bottom calls again and again; the partial variant binds only a Python float, so each fresh partial is equal in value to the last one.
"""
import functools

import jax
import jax.numpy as jnp

TRACES = {"custom_einsum": 0, "add_multiply": 0}


# BAD: Recreating function object on every call
def top_function_def(x, y):
  # Creates a brand new function object with a new memory id on every call
  # to `top_function`.
  def custom_einsum(a, b):
    TRACES["custom_einsum"] += 1
    return jnp.einsum("...i,...i->...", a, b)

  return jax.jit(custom_einsum)(x, y)  # expect: jit-fresh-function


# BAD: JIT compiling a freshly created lambda on every call
def add_multiply(a, b, scale):
  TRACES["add_multiply"] += 1
  return (a + b) * scale

def top_function_lambda(x, y, scale_factor):
  # Creates a brand new lambda object with a new memory id on every pass!
  return jax.jit(lambda a, b: add_multiply(a, b, scale=scale_factor))(x, y)  # expect: jit-fresh-function


# "GOOD" according to the page: Using functools.partial
def top_function_partial(x, y, scale_factor):
  # JAX correctly unwraps functools.partial and hits the tracing cache!
  return jax.jit(functools.partial(add_multiply, scale=scale_factor))(x, y)  # expect: jit-fresh-function


if __name__ == "__main__":
  x = jnp.ones(3)
  y = jnp.arange(3.0)
  for _ in range(5):
    top_function_def(x, y)
  for _ in range(5):
    top_function_lambda(x, y, 2.0)
  lambda_traces = TRACES["add_multiply"]
  for _ in range(5):
    top_function_partial(x, y, 2.0)
  partial_traces = TRACES["add_multiply"] - lambda_traces
  print("traces: inner def", TRACES["custom_einsum"], "lambda", lambda_traces, "partial", partial_traces)
  assert (TRACES["custom_einsum"], lambda_traces, partial_traces) == (5, 5, 5), TRACES
  print("BUG: every variant traces again on every call")
