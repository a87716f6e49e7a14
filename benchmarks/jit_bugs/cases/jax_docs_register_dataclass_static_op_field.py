"""Source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
Library: jax-dataclass-registration
Correct: the `jax.tree_util.register_dataclass` docstring example registers a plain (not frozen) `@dataclass` whose `op: str` field is marked `field(metadata=dict(static=True))`, then passes an instance to a `@jax.jit` function that branches on `m.op`. The meta field holds a string, hashable and compared by value, and nothing mutates the instance; a new instance with new arrays and an equal `op` reuses the compilation. A strict checker could report the unfrozen dataclass holding a static field (static-not-frozen) or the branch on a field of a traced argument; neither is a hazard here.
Transcribed: the docstring's second `MyStruct` example and its `compiled_func` (jax/_src/tree_util.py in jax-ml/jax at commit eddef19ce11295fe21805649a5385f6e19ec9200) with its imports; a trace counter, a second instance with new arrays and checks were added.
"""
import jax
import jax.numpy as jnp
from dataclasses import dataclass, field

TRACES = [0]


@jax.tree_util.register_dataclass
@dataclass
class MyStruct:
  x: jax.Array  # defaults to non-static data field
  y: jax.Array  # defaults to non-static data field
  op: str = field(metadata=dict(static=True))  # marked as static meta field.

m = MyStruct(x=jnp.ones(3), y=jnp.arange(3), op='add')

leaves, treedef = jax.tree.flatten(m)
print(treedef)


@jax.jit
def compiled_func(m):
  TRACES[0] += 1
  if m.op == 'add':
    return m.x + m.y
  else:
    raise ValueError(f"{m.op=}")

print(compiled_func(m))
m2 = MyStruct(x=jnp.zeros(3), y=jnp.arange(3), op='add')
print(compiled_func(m2))
assert TRACES[0] == 1, TRACES
print("OK: the str meta field is compared by value; one compilation")
