"""Source: https://github.com/patrick-kidger/equinox/issues/1141
Library: plain-jax
Correct: the reporter calls jax.jit(fun_name) anew in every iteration of a Python loop, fun_name being a module-level function, and asks how it compares with a lax loop; a maintainer answered that it "will recompile if you put the jit inside the for-loop". It does not: jax.jit of the same function object reuses jax's own cache, so it traces and compiles once (measured: traces 1).
Transcribed: the report's sketch, with its elided parts filled in: a body for fun_name (a trace counter and one array operation, given an argument), a loop of five iterations, the jitted function called on one array, and a print of the trace count.
"""
import jax
import jax.numpy as jnp

traces = 0


def fun_name(x):
    global traces
    traces += 1
    return x * 2


for _ in range(5):
    y = jax.jit(fun_name)(jnp.ones(3))
print("traces", traces)  # 1
