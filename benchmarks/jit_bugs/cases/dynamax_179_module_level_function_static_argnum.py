"""Source: https://github.com/probml/dynamax/issues/179
Library: plain-jax
Correct: The comment in the thread keeps the input function static with functools.partial(jit, static_argnums=(2,)).
The function passed in the static position is a module-level def, made once, so every call hashes to the
same cache key and g compiles once for each input shape.
Transcribed: Kept g exactly as posted in the comment; added imports, a module-level function `square` to pass
as f, a trace counter, and a loop that calls g with arrays in the traced positions.
"""
from functools import partial

import jax.numpy as jnp
from jax import jit

TRACES = 0


@partial(jit, static_argnums=(2,))
def g(x, y, f):
    global TRACES
    TRACES += 1
    return x + f(y)


def square(y):
    return y ** 2


if __name__ == "__main__":
    x = jnp.ones(3)
    for i in range(5):
        out = g(x, jnp.arange(3.0) + i, square)
    print("result:", out, "traces:", TRACES)
    assert TRACES == 1, TRACES
    print("OK: module-level function in a static position compiles once")
