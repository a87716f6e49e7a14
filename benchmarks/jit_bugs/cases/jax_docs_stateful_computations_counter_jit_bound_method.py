"""Source: https://docs.jax.dev/en/latest/stateful-computations.html
Library: plain-jax
Reported: "Stateful computations", section "A simple example: Counter": `fast_count = jax.jit(counter.count)` prints 1, 1, 1 instead of 1, 2, 3 ("Oh no! Our counter isn't working."). `count` increments `self.n`, a side effect that runs once while jit traces the bound method; the compiled program returns the constant traced then, and the object's later state is never looked at again.
Transcribed: the section's two code cells as written (docs/stateful-computations.md in jax-ml/jax, stored version 055a8834); nothing added.
Hard: the jitted callable is the bound method `counter.count` of a plain class whose method assigns `self.n`.
"""
import jax
import jax.numpy as jnp

class Counter:
  """A simple counter."""

  def __init__(self):
    self.n = 0

  def count(self) -> int:
    """Increments the counter and returns the new value."""
    self.n += 1
    return self.n

  def reset(self):
    """Resets the counter to zero."""
    self.n = 0


counter = Counter()

for _ in range(3):
  print(counter.count())

counter.reset()
fast_count = jax.jit(counter.count)  # expect: jit-bound-method

for _ in range(3):
  print(fast_count())
