"""Source: https://github.com/jax-ml/jax/issues/446
Library: plain-jax
Correct: mattjj's answer registers a namedtuple Point as a pytree (its fields as children, None as aux data) and passes it to grad and jit; the aux data is None and every field is traced, so nothing static can go stale or fail to hash, and a new Point with new numbers reuses the compiled code. A checker that treats a hand-registered pytree or its flatten lambdas as static values made afresh would be wrong here.
Transcribed: the answer's snippet in Python 3 (print calls), with a second call on a new Point and a trace counter added.
"""
from collections import namedtuple
from jax.tree_util import register_pytree_node
from jax import grad, jit
import jax.numpy as np

TRACES = [0]

Point = namedtuple("Point", ["x", "y"])

register_pytree_node(
    Point,
    lambda xs: (tuple(xs), None),  # tell JAX how to unpack to an iterable
    lambda _, xs: Point(*xs)       # tell JAX how to pack back into a Point
)


def f(pt):
  TRACES[0] += 1
  return np.sqrt(pt.x**2 + pt.y**2)

pt = Point(1., 2.)

print(f(pt))        # 2.236068
print(grad(f)(pt))  # Point(x=..., y=...)

g = jit(f)
print(g(pt))  # 2.236068
before = TRACES[0]
print(g(Point(3., 4.)))  # 5.0
assert TRACES[0] == before, TRACES
