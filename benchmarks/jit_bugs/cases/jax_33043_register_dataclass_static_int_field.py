"""Source: https://github.com/jax-ml/jax/issues/33043
Library: jax-dataclass-registration
Correct: the reporter's Shape is a register_dataclass pytree whose static field idx is an int, marked with field(metadata={"static": True}), and whose jitted area is a staticmethod taking the instance as an ordinary (traced) argument. An int is the right kind of static value (hashed and compared by value); a Shape built with another idx compiles area again, which is what the report asks JAX to avoid, not a static-value bug (s1 reused compiles once).
Transcribed: as reported, with time and jax.numpy imported (the stored copy is cut off inside the last print, which is completed like the three before it); `shape.lenght` in area was corrected to `shape.length` (as written, area raises AttributeError before anything about static values can be seen).
"""
import time

import jax
import jax.numpy as jnp
from dataclasses import dataclass, field

@jax.tree_util.register_dataclass
@dataclass(slots=True)
class Shape:
    length: jax.Array
    idx: int = field(default=1, metadata={"static": True})

    @staticmethod
    @jax.jit
    def area(shape: "Shape") -> jax.Array:
        return shape.length * shape.length

s1 = Shape(jnp.asarray(10.0), 2)

start = time.perf_counter()
area = s1.area(s1)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Compile time s1: {end - start:.2e} s")

start = time.perf_counter()
area = s1.area(s1)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Eval time s1: {end - start:.2e} s")

s2 = Shape(jnp.asarray(10.0), 3)

start = time.perf_counter()
area = s2.area(s2)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Compile time s2: {end - start:.2e} s")

start = time.perf_counter()
area = s2.area(s2)
area.block_until_ready()
end = time.perf_counter()
print()
print(f"Eval time s2: {end - start:.2e} s")
