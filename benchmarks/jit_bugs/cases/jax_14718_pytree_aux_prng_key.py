"""Source: https://github.com/jax-ml/jax/issues/14718
Library: plain-jax
Reported: a PRNG key returned as aux data by the flatten function given to register_pytree_node is accepted by jit, although static_argnums refuses the same unhashable value; changing the key and calling the function again fails.
Transcribed: jax.random.KeyArray (removed from JAX since) became jax.Array.
Hard: the field is static only because the flatten function passed to register_pytree_node returns it as the aux data.
"""
import dataclasses
import jax
import jax.numpy as jnp
import numpy as np

@dataclasses.dataclass
class Foo:
    a: int
    b: jax.Array  # expect: static-dynamic-child

def flattten(m: Foo):
    return (m.a,), m.b

def unflatten(aux_data, children):
    return Foo(a=children[0], b=aux_data)

jax.tree_util.register_pytree_node(Foo, flattten, unflatten)

module = Foo(a=1, b=jax.random.PRNGKey(0))

@jax.jit
def f(m: Foo):
    print("Jitting")
    return m.a + m.b

f(module) # works 🤔
