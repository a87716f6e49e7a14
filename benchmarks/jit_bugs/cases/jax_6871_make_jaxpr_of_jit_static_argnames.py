"""Source: https://github.com/jax-ml/jax/issues/6871
Library: plain-jax
Reported: jax.make_jaxpr applied to a function jitted with static_argnames={'y'} fails with
"ValueError: Non-hashable static arguments are not supported ... DynamicJaxprTracer": make_jaxpr
traces every argument, so the value reaching the static parameter y is a tracer.
Transcribed: Added the import; code otherwise as reported.
Hard: The jitted function is not called directly: make_jaxpr(jit_func) wraps it, so a checker must
know that make_jaxpr turns the positional argument 2 (position of static y) into a tracer.
"""
import jax


def my_func(x, y):
  return x + y

jit_func = jax.jit(my_func, static_argnames={'y'})
jax.make_jaxpr(jit_func)(1, 2)  # expect: static-dynamic-child
