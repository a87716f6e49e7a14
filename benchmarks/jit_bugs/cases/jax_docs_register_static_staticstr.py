"""Source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_static.html
Library: plain-jax
Correct: the `jax.tree_util.register_static` docstring registers `class StaticStr(str)` as a pytree with no leaves, so an instance passed in an ordinary (traced) position of `jax.jit` is treated as static: it goes into the treedef, and a `str` subclass hashes and compares by its text. A new but equal `StaticStr('add')` reuses the compilation and `StaticStr('sub')` compiles the other branch. A checker that reports a non-array, non-JAX-type value (a str) in a traced position (jit-unsupported-argument), or an identity-hashed class in pytree metadata, would be wrong here.
Transcribed: the docstring example (jax/_src/tree_util.py in jax-ml/jax at commit eddef19ce11295fe21805649a5385f6e19ec9200) with `import jax`; a trace counter, a second equal `StaticStr`, a `'sub'` call and checks were added.
"""
import jax

TRACES = [0]


@jax.tree_util.register_static
class StaticStr(str):
  pass


@jax.jit
def f(x, y, s):
  TRACES[0] += 1
  return x + y if s == 'add' else x - y

print(f(1, 2, StaticStr('add')))
assert int(f(1, 2, StaticStr('add'))) == 3
assert TRACES[0] == 1, TRACES
assert int(f(1, 2, StaticStr('sub'))) == -1
assert TRACES[0] == 2, TRACES
print("OK: equal StaticStr values share a compilation; a different value compiles once more")
