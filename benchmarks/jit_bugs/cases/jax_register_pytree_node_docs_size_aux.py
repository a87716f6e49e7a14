"""Source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
Library: plain-jax
Correct: the documentation example of jax.tree_util.register_pytree_node registers MyContainer with a hand-written flatten function whose aux data is (obj.size,): a tuple holding the int size, made afresh by every flatten, hashable and compared by value, while the arrays x and y are children. The object's size attribute is an int given to the constructor (MyContainer(size=5)), and jnp.arange(m.size) needs it static. A checker that reported every attribute returned as aux data, or an attribute assigned in __init__ without a declared type, would be wrong here.
Transcribed: the docstring example (jax/_src/tree_util.py at commit cec06d116c05f0d52adfceee3d3b730fdbcb0ce5, rendered on the page above) with the doctest prompts removed, `import jax` and `import jax.numpy as jnp` added, and the call made before registration (which the page shows failing with TypeError, to motivate registering) left out. Observed (jax 0.10.2): prints [1. 2. 3. 4. 5.]; in a scratch copy a second call with a new MyContainer(size=5) reused the compilation (cache size 1).
"""
import jax
import jax.numpy as jnp


class MyContainer:
  def __init__(self, size):
    self.x = jnp.zeros(size)
    self.y = jnp.ones(size)
    self.size = size

m = MyContainer(size=5)
def f(m):
  return m.x + m.y + jnp.arange(m.size)

def flatten_func(obj):
  children = (obj.x, obj.y)  # children must contain arrays & pytrees
  aux_data = (obj.size,)  # aux_data must contain static, hashable data.
  return (children, aux_data)

def unflatten_func(aux_data, children):
  # Here we avoid `__init__` because it has extra logic we don't require:
  obj = object.__new__(MyContainer)
  obj.x, obj.y = children
  obj.size, = aux_data
  return obj

jax.tree_util.register_pytree_node(MyContainer, flatten_func, unflatten_func)

# Now with this defined, we can use instances of this type in JIT-compiled functions.

print(jax.jit(f)(m))
