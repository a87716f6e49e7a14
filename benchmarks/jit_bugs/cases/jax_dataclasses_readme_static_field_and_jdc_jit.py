"""Source: https://github.com/brentyi/jax_dataclasses/blob/6817a9de26d6ae875f5bf70f24a983cad5d8cb11/README.md
Library: jax_dataclasses
Correct: the README's "Static fields" section: `jdc.Static[bool]` marks field `b` of a `@jdc.pytree_dataclass` as static (part of the treedef, not a leaf), and `@jdc.jit` reads `jdc.Static[...]` in a function signature to make that parameter static. A bool hashes by value, so each distinct value compiles once and equal values share the compiled code; pytree dataclasses are frozen. A checker that misses that `jdc.jit` takes its static parameters from the annotations, and reports the bool as a traced non-array, or the dataclass instance as an unhashable static value, would flag the documented use.
Transcribed: the section's two snippets (`class A`, `f`) as written; the bodies the README elides with `...` (f's return and a function taking an `A`), the calls and the trace counters were added.
"""
import jax
import jax.numpy as jnp
import jax_dataclasses as jdc


@jdc.pytree_dataclass
class A:
    a: jax.Array
    b: jdc.Static[bool]


traces = {"f": 0, "g": 0}


@jdc.jit
def f(a: jax.Array, b: jdc.Static[bool]) -> jax.Array:
  traces["f"] += 1
  return a * 2 if b else a


@jax.jit
def g(x: A) -> jax.Array:
  traces["g"] += 1
  return x.a * 2 if x.b else x.a


print(f(jnp.ones(3), True), f(jnp.zeros(3), True), f(jnp.ones(3), False))
print(g(A(jnp.ones(3), True)), g(A(jnp.zeros(3), True)), g(A(jnp.ones(3), False)))
assert traces == {"f": 2, "g": 2}, traces
