"""Source: https://github.com/patrick-kidger/equinox/issues/1150
Library: plain-jax
Correct: the report's working alternative: `jax.tree_util.Partial(f, a=10)` made once at module level and given to `jax.lax.scan`. `tree_util.Partial` is a pytree whose function is kept in the treedef and whose bound arguments are leaves, so `lax.scan` can hash it; it is built once, so the same object reaches `lax.scan` on every call and the scan body is traced once. A checker that treats every partial handed to a transformation as an identity-hashed or unhashable callable would flag it.
Transcribed: the report's second snippet as written; a second `lax.scan` call and a trace counter in `f` were added to show the trace is reused.
"""
import equinox as eqx
import jax

traces = 0

def f(carry, xs, a):
    global traces
    traces += 1
    return carry + a, carry + a
scan_fn = jax.tree_util.Partial(f, a=10)

carry, y = jax.lax.scan(
    scan_fn,
    init=0,
    xs=None,
    length=3,
)
print(carry, y)
carry, y = jax.lax.scan(scan_fn, init=0, xs=None, length=3)
print(carry, y, "traces:", traces)
