"""Source: https://github.com/patrick-kidger/equinox/issues/1150
Library: plain-jax
Reported: "Combining eqx.Partial with jax.lax.scan": `jax.lax.scan(eqx.Partial(f, a=10), ...)` fails with `TypeError: unhashable type: 'dict'`. `eqx.Partial` is a Module whose `keywords` field is a dict, and `lax.scan` hashes the function it is given to cache its trace, so the dict is hashed. Positional arguments do not help (the `keywords` field is then an empty dict); the report notes `jax.tree_util.Partial` works. Running it here (jax 0.10.2) raises the same TypeError at the `lax.scan` call.
Transcribed: the report's first snippet as written.
Hard: the dict is not visible in the code: `eqx.Partial` stores the keyword arguments in a dict field, and the hashed position is lax.scan's function argument.
"""
import equinox as eqx
import jax

def f(carry, xs, a):
    return carry + a, carry + a

scan_fn = eqx.Partial(f, a=10)

carry, y = jax.lax.scan(
    scan_fn,  # expect: static-unhashable
    init=0,
    xs=None,
    length=3,
)
print(carry, y)
