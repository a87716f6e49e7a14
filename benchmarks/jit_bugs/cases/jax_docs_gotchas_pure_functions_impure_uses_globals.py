"""Source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions
Library: plain-jax
Reported: "JAX - The Sharp Bits", section "Pure functions": `impure_uses_globals` reads the global `g`; "JAX captures the value of the global during the first run", `g = 10.` updates it, and "Subsequent runs may silently use the cached value of the globals": the second call returns 5.0 instead of 15.0; only the third call, with an argument of another type and shape, retraces and "will end up reading the latest value of the global".
Transcribed: the section's second cell (docs/notebooks/Common_Gotchas_in_JAX.md) with the notebook's imports of `jit` and `jax.numpy`.
Hard: `g` is a module global rebound by a plain assignment between two calls; each call applies `jit` afresh to the same module-level function, whose compiled code JAX caches by function identity.
"""
import jax.numpy as jnp
from jax import jit

g = 0.
def impure_uses_globals(x):
  return x + g

# JAX captures the value of the global during the first run
print ("First call: ", jit(impure_uses_globals)(4.))
g = 10.  # Update the global

# Subsequent runs may silently use the cached value of the globals
print ("Second call: ", jit(impure_uses_globals)(5.))  # expect: jit-stale-global

# JAX re-runs the Python function when the type or shape of the argument changes
# This will end up reading the latest value of the global
print ("Third call, different type: ", jit(impure_uses_globals)(jnp.array([4.])))
