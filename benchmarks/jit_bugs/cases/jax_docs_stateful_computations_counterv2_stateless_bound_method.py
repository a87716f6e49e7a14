"""Source: https://docs.jax.dev/en/latest/stateful-computations.html
Library: plain-jax
Correct: "Stateful computations", section "The solution: explicit state": `CounterV2` keeps no state on the instance (`count(self, n)` takes the state and returns the new one), so `fast_count = jax.jit(counter.count)` of its bound method is safe ("we can now safely `jax.jit` this counter"): the instance has no attributes that could change after jit traced the method, and the state is an ordinary traced argument. A checker that reports every `jax.jit(obj.method)` as baking in a mutable object would flag the page's recommended fix.
Transcribed: the section's two code cells as written (docs/stateful-computations.md in jax-ml/jax, stored version 055a8834), with `import jax` added; the asserts on the printed values were added.
"""
import jax

CounterState = int

class CounterV2:

  def count(self, n: CounterState) -> tuple[int, CounterState]:
    # You could just return n+1, but here we separate its role as 
    # the output and as the counter state for didactic purposes.
    return n+1, n+1

  def reset(self) -> CounterState:
    return 0

counter = CounterV2()
state = counter.reset()

for _ in range(3):
  value, state = counter.count(state)
  print(value)

state = counter.reset()
fast_count = jax.jit(counter.count)

values = []
for _ in range(3):
  value, state = fast_count(state)
  print(value)
  values.append(int(value))
assert values == [1, 2, 3], values
