"""Source: https://github.com/jax-ml/jax/issues/4712
Library: plain-jax
Reported: A function jitted with static_argnums=(0,) was recompiled on every run whenever the
static list argument `dummy_arg = [0]` was re-created, even though `[0] == [0]` (JAX at the time
hashed unhashable static args by object identity). Current JAX rejects the list outright with
"ValueError: Non-hashable static arguments are not supported".
Transcribed: jax.partial -> functools.partial; the jax.profiler.TraceContext blocks are dropped
and the calls kept in order; every call now raises, so each is wrapped in try/except to show it.
Hard: The list reaches the static position through a variable (`dummy_arg`) assigned from a list
literal, not through a literal at the call site; it is rebuilt and passed again.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def dummy_add_fn(dummy, x):
    return x + 1


dummy_arg = [0]
real_arg = jnp.zeros((3,))
try:
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable
except ValueError as e:
    print("Run 1:", e)
try:
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable
except ValueError as e:
    print("Run 2:", e)

dummy_arg = [0]
try:
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable
except ValueError as e:
    print("Run 3:", e)
