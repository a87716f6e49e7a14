"""Source: https://github.com/jax-ml/jax/issues/4085
Library: plain-jax
Correct: a maintainer's example from the thread: a dict given to a jitted function in a traced position is a pytree, flattened with its keys sorted, so dicts with the same keys in another order are one cache entry (both calls return the value of key 'a'). A dict is unhashable, which matters only in a static position; here nothing is static.
Transcribed: the example's IPython cells joined into a script, the outputs printed.
"""
import jax
import jax.numpy as jnp

@jax.jit
def first_value(x: dict[str, jax.Array]) -> jax.Array:
  first_key = next(iter(x))
  return x[first_key]

x1 = {'a': jnp.int32(1), 'b': jnp.float32(2)}
print(first_value(x1))

x2 = {'b': jnp.float32(2), 'a': jnp.int32(1)}
print(first_value(x2))
