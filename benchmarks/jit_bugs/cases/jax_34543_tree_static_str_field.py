"""Source: https://github.com/jax-ml/jax/pull/34543
Library: jax-dataclass-registration
Correct: the docstring example of jax.tree.static(): a register_dataclass field holding a str is marked static, beside two array data fields.
Transcribed: the docstring's class; its flatten/unflatten demonstration became a jitted function called on two instances.
"""
import jax
import jax.numpy as jnp
from dataclasses import dataclass


@jax.tree_util.register_dataclass
@dataclass
class MyStruct:
  x: jax.Array
  y: jax.Array
  op: str = jax.tree.static() # marked as static field.


@jax.jit
def apply(s):
  return s.x + s.y if s.op == 'add' else s.x * s.y


print(apply(MyStruct(jnp.ones(3), jnp.arange(3), op='add')))
print(apply(MyStruct(jnp.zeros(3), jnp.arange(3), op='add')))
