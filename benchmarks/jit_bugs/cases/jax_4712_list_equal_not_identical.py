"""Source: https://github.com/jax-ml/jax/issues/4712
Library: plain-jax
Reported: a static argument equal to the previous one but not identical ([0] == [0]) recompiles the function every time.
Transcribed: jax.partial became functools.partial and jax.profiler.TraceContext became jax.profiler.TraceAnnotation (both renamed since).
"""
import functools

import jax
import jax.numpy as jnp

@functools.partial(jax.jit, static_argnums=(0,))
def dummy_add_fn(dummy, x):
    return x + 1

dummy_arg = [0]
real_arg = jnp.zeros((3,))
with jax.profiler.TraceAnnotation("Run 1"):
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable
with jax.profiler.TraceAnnotation("Run 2"):
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable

dummy_arg = [0]
with jax.profiler.TraceAnnotation("Run 3"):
    dummy_add_fn(dummy_arg, real_arg)  # expect: static-unhashable
