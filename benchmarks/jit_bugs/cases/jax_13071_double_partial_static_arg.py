"""Source: https://github.com/jax-ml/jax/issues/13071
Library: plain-jax
Reported: Passing `jtu.Partial(g)` objects (built afresh, h1 and h2, wrapping the same `g`) in a
static_argnums position of a jitted function retraces on every new object ("tracing!" printed twice),
because Partial hashes by identity; the maintainers' reply was that a Partial passed as static is
hashed by object id, so each fresh Partial is a cache miss.
Transcribed: Code as reported; only a compile counter was added so the run shows the retrace.
Hard: The checker must see that `h1`/`h2` are fresh `jax.tree_util.Partial(...)` objects
(callables wrapping callables, identity-hashed) and that `check` was wrapped as
`jax.jit(check, static_argnums=0)` by reassigning the same name, so argument 0 is static.
"""
import jax
import jax.tree_util as jtu

traces = 0


def f(x): pass
g = jtu.Partial(f)
h1 = jtu.Partial(g)
h2 = jtu.Partial(g)

def check(x):
    global traces
    traces += 1
    print("tracing!")

check = jax.jit(check, static_argnums=0)
check(h1)  # tracing!  # expect: static-identity-hash
check(h2)  # tracing!  # expect: static-identity-hash

print("traces:", traces)  # 2: each fresh Partial is a new cache key
