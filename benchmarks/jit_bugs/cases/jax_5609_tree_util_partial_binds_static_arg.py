"""Source: https://github.com/jax-ml/jax/issues/5609
Library: plain-jax
Reported: A jitted function with static_argnums=(0,) is bound with jax.tree_util.Partial and the
Partial is passed into another jitted function; Partial's bound args are pytree leaves, so p
arrives as a tracer in the static position: "ValueError: Non-hashable static arguments are not
supported ... DynamicJaxprTracer for function fn_with_static_arg".
Transcribed: Code as reported (imports included in the report).
Hard: The bad value reaches the static position only indirectly: p is bound by
jax.tree_util.Partial (a pytree whose args are traced when passed through @jax.jit f), and the
static call happens inside f as fn(x).
"""
from functools import partial
import jax
import jax.numpy as jnp

@jax.jit
def f(x, fn):
    return fn(fn(x))

@partial(jax.jit, static_argnums=(0,))
def fn_with_static_arg(p, x):
    return jnp.tile(x, (p,))

@jax.jit
def fn_simple(p, x):
    return x ** p

x = jnp.arange(3)
p = 2
print(f(x, jax.tree_util.Partial(fn_simple, p)))  # works fine
print(f(x, jax.tree_util.Partial(fn_with_static_arg, p)))  # expect: static-dynamic-child
