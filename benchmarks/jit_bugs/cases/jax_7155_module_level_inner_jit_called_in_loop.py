"""Source: https://github.com/jax-ml/jax/issues/7155
Library: plain-jax
Correct: the issue's example as rerun in the thread: `inner_fn`, jitted once at module level, is called ten times in a Python loop inside another jitted function; each call is the same jitted function object, traced once ("entering inner_fn now" prints once), so calling a jitted function in a loop, and nesting jits, compiles nothing again.
Transcribed: the commenter's script as posted (from the 2023-03-17 comment).
"""
import jax
import jax.numpy as jnp
from functools import partial

@jax.jit
def inner_fn(state):
    print("entering inner_fn now")
    return 2*state

@jax.jit
def outer_fn(x):
    print("entering outer_fn now")
    old_x = x
    for _ in range(10):
        x = inner_fn(x)
    x = x + old_x
    return x

with jax.log_compiles(True):
    state = jnp.arange(5, dtype=jnp.uint32)
    inner_fn(state)
    outer_fn(state)
