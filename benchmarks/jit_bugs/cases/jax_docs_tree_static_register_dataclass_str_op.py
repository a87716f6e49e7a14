"""Source: https://docs.jax.dev/en/latest/_autosummary/jax.tree.static.html
Library: jax-dataclass-registration
Correct: the `jax.tree.static` docstring example: a dataclass registered with `jax.tree_util.register_dataclass` whose `op: str` field is declared static with `jax.tree.static(default="add")`, so it goes into the treedef (`PyTreeDef(CustomNode(MyOp[('add',)], [*, *]))`) while `x` and `y` are leaves. A string hashes and compares by value, so jit compiles once per distinct `op` and a new instance with equal fields hits the cache; jit can branch on `m.op` in Python. A checker that reports a non-frozen registered dataclass, or any static field of a class passed to jit, would flag the documented API.
Transcribed: the docstring's example as written (jax/_src/tree.py, `static`, in jax 0.10.2), with `import jax.numpy as jnp` added; the jitted `apply` that branches on `m.op`, the calls with two equal instances and one with `op="mul"`, and the trace counter were added to show jit using the static field.
"""
import jax
import jax.numpy as jnp
from dataclasses import dataclass

@jax.tree_util.register_dataclass
@dataclass
class MyOp:
  x: jax.Array
  y: jax.Array
  op: str = jax.tree.static(default="add")  # static string field

m = MyOp(x=jnp.ones(3), y=jnp.arange(3))
print(m)

leaves, treedef = jax.tree.flatten(m)
print(leaves)
print(treedef)
print(jax.tree.unflatten(treedef, leaves))

traces = 0

@jax.jit
def apply(m: MyOp) -> jax.Array:
  global traces
  traces += 1
  return m.x + m.y if m.op == "add" else m.x * m.y

print(apply(m))
print(apply(MyOp(x=jnp.zeros(3), y=jnp.arange(3))))
print(apply(MyOp(x=jnp.ones(3), y=jnp.arange(3), op="mul")))
assert traces == 2, traces
