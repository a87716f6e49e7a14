"""Source: https://github.com/google/flax/issues/4329
Library: plain-jax
Correct: the maintainer's test script from the thread: `nnx.jit` of a module-level function called with two separately built `nnx.Linear` modules of equal shapes compiles once (`N == 1` after both calls); nnx splits each module into a graphdef compared by value and traced state, so a new instance is no new cache key. The reporter's recompiles came from something hashed by identity in their own objects, which this code does not have.
Transcribed: the maintainer's script as posted, with its imports added.
"""
import jax
from flax import nnx

rngs = nnx.Rngs(0)
m1 = nnx.Linear(2, 3, rngs=rngs)
m2 = nnx.Linear(2, 3, rngs=rngs)

N = 0
@nnx.jit
def forward(m, x):
  global N
  N += 1
  return m(x)

x1 = jax.random.uniform(rngs(), (5, 2))
x2 = jax.random.uniform(rngs(), (5, 2))

y1 = forward(m1, x1)
assert N == 1

y2 = forward(m2, x2)
assert N == 1 # did not recompile
