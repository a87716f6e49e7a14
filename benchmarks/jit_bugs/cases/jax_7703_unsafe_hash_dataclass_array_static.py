"""Source: https://github.com/jax-ml/jax/issues/7703
Library: plain-jax
Reported: a dataclass with unsafe_hash=True holding a jax array cannot be hashed, so jit with the instance in a static position fails with 'unhashable type: DeviceArray' (the report is about pmap accepting it silently).
Transcribed: the report's jit line, commented out there, is run; its pmap line, the report's subject, is left commented out.
Hard: the field is typed Any; the array is visible only in the constructor call C(x).
"""
import dataclasses
from typing import Any
import jax

@dataclasses.dataclass(unsafe_hash=True)
class C:
  x: Any

x = jax.numpy.zeros([1])
c = C(x)

# hash(c)  # unhashable type: 'DeviceArray'

def f(c, x):
  return x * c.x

jax.jit(f, static_argnums=0)(c, x)  # unhashable type: 'DeviceArray'  # expect: static-dynamic-child
# jax.pmap(f, static_broadcasted_argnums=0)(c, x)
