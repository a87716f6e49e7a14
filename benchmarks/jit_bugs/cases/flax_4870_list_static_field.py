"""Source: https://github.com/google/flax/issues/4870
Library: flax
Reported: a list in a struct.field(pytree_node=False) is accepted, and mutating it changes the treedef that jit hashes (the static field's hashability is never checked).
Transcribed: the maintainer's example from the thread, with its imports (its comment after hash(d) is cut off in the stored copy).
Hard: the static marker is flax's struct.field(pytree_node=False).
"""
import flax
import jax
import jax.numpy as jnp

@flax.struct.dataclass
class Foo:
  a: jax.Array
  b: list = flax.struct.field(pytree_node=False)  # expect: static-unhashable

f = Foo(jnp.ones((2, 2)), [1, 2])
l, d = jax.tree.flatten(f)
f.b.append(3)
print(d)   # PyTreeDef(CustomNode(Foo[([1, 2, 3],)], [*]))
hash(d)
