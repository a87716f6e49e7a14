"""Source: https://github.com/jax-ml/jax/pull/5620
Library: plain-jax
Correct: The docstring example added in this PR passes jax.tree_util.Partial objects to a plain @jit function
in a traced (non-static) position. Partial is a pytree: its bound arguments become traced leaves and the
wrapped function goes into the treedef, so no static_argnums is needed and new Partial(jnp.add, ...) objects
hit the same cache entry.
Transcribed: Copied the docstring example (add_one, call_func, Partial(jnp.add)); added a trace counter and a
loop that builds a fresh Partial with the same function on each call.
"""
import jax.numpy as jnp
from jax import jit
from jax.tree_util import Partial

TRACES = 0

add_one = Partial(jnp.add, 1)
print(add_one(2))


@jit
def call_func(f, *args):
    global TRACES
    TRACES += 1
    return f(*args)


if __name__ == "__main__":
    print(call_func(add_one, 2))
    print(call_func(Partial(jnp.add), 1, 2))
    before = TRACES
    for i in range(5):
        assert int(call_func(Partial(jnp.add, i), 2)) == i + 2
    print("traces:", TRACES)
    # Partial(jnp.add, i) has the same treedef as add_one, so the loop adds no traces.
    assert TRACES == before, (before, TRACES)
    print("OK: jax.tree_util.Partial passes through jit as a pytree")
