"""Source: https://github.com/google/flax/pull/590
Library: plain-jax
Correct: "Remove non hashable static args": the PR "makes Scope unhashable and linen Modules hashable when they are unbound such that you can do: `jax.jit(f, static_argnums=0)(module, x)`". An unbound linen Module is a dataclass hashed and compared by its attributes (here the int `features`), and its attributes cannot be reassigned outside `setup`, so two `nn.Dense(10)` are equal and share one compiled program while `nn.Dense(5)` gets its own. A checker that reports a Module instance (a class with methods and a custom metaclass) in a static position as identity-hashed or mutable would flag the idiom the PR enables.
Transcribed: `test_module_is_hashable` from tests/linen/module_test.py in the PR (commit d96b6a95) as plain asserts, and the description's `jax.jit(f, static_argnums=0)(module, x)`; `f`, which the description leaves undefined, initializes the module on `x` and returns its output, and the calls with the three modules and the trace counter were added.
"""
import jax
import jax.numpy as jnp
from flax import linen as nn

module_a = nn.Dense(10)
module_a_2 = nn.Dense(10)
module_b = nn.Dense(5)
assert hash(module_a) == hash(module_a_2)
assert hash(module_a) != hash(module_b)

traces = 0

def f(module, x):
  global traces
  traces += 1
  y, _ = module.init_with_output(jax.random.PRNGKey(0), x)
  return y

x = jnp.ones((2, 3))
print(jax.jit(f, static_argnums=0)(module_a, x).shape)
print(jax.jit(f, static_argnums=0)(module_a_2, x).shape)
print(jax.jit(f, static_argnums=0)(module_b, x).shape)
assert traces == 2, traces
