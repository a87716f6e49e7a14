"""Source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/docs/faq.md
Library: plain-jax
Reported: Equinox FAQ, "How to use (non-array) modules as inputs to scan/cond/while etc.?": "What about if you want a module function to be the function being `scan`-ed over? If you just try to `jax.lax.scan(module, ...)` you will see a `TypeError: unhashable type: 'jaxlib.xla_extension.ArrayImpl'`. This is a bug in jax (google/jax#13554) that can be avoided by simply wrapping the module function in a lambda, e.g. `jax.lax.scan(lambda x, y: module(x, y), ...)`." `lax.scan` hashes the function it is given to cache its trace, and a Module hashes by its fields, which hold arrays.
Transcribed: the FAQ gives the call as `jax.lax.scan(module, ...)`; a minimal Module with one array field and a `(carry, x) -> (carry, y)` `__call__`, and the scan's carry and inputs, were added.
Hard: the function position of `lax.scan` is hashed like a static argument; the value there is an `eqx.Module` instance (hashed by its fields), and only its field `weight: jax.Array` makes it unhashable.
"""
import equinox as eqx
import jax
import jax.numpy as jnp


class Step(eqx.Module):
    weight: jax.Array

    def __call__(self, carry, x):
        carry = carry * self.weight + x
        return carry, carry


module = Step(jnp.array(0.5))
carry, ys = jax.lax.scan(module, jnp.array(0.0), jnp.arange(4.0))  # expect: static-dynamic-child
print(carry, ys)
