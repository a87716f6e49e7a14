"""Source: https://docs.jax.dev/en/latest/faq.html#jit-changes-the-behavior-of-my-function
Library: plain-jax
Reported: the FAQ entry "`jit` changes the behavior of my function": "`impure_func` uses the global `y` and has a side-effect due to `print`"; with `@jit` the loop prints "Inside: 0" once and then "Result: 0", "Result: 1", "Result: 2" instead of 0, 2, 4, because "the function is executed once using the Python interpreter, at which time the `Inside` printing happens, and the first value of `y` is observed. Then, the function is compiled and cached, and executed multiple times with different values of `x`, but with the same first value of `y`."
Transcribed: the FAQ's snippet (docs/faq.rst) with its commented-out `# @jit` applied, as the text describes the jitted run; the import was added.
Hard: `y` is a module global that the `for` statement rebinds on every iteration after `impure_func` was traced; nothing is passed in a static position.
"""
from jax import jit

y = 0

@jit  # Different behavior with jit
def impure_func(x):
  print("Inside:", y)
  return x + y

for y in range(3):
  print("Result:", impure_func(y))  # expect: jit-stale-global
