"""Source: https://github.com/brentyi/jax_dataclasses/issues/3
Library: jax_dataclasses
Correct: the static field holds an int derived once from the array, a hashable static value; the reported failure came from jax_dataclasses running __post_init__ again when it rebuilt the object from placeholder leaves.
"""
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc

@jdc.pytree_dataclass()
class PyTreeDataclass:
    a: jnp.ndarray
    _sum: int = jdc.static_field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_sum", self.a.sum().item())

def print_pytree(obj):
    print(obj._sum)

obj = PyTreeDataclass(jnp.arange(4))
print_pytree(obj)
jax.jit(print_pytree)(obj)
