"""Source: https://github.com/jax-ml/jax/issues/1710
Library: plain-jax
Reported: "memory leak of jax.random in GPU" (numpyro): fehiepsi's JAX-only reproduction runs `lax.fori_loop(0, 10, abc.body_fn, random.PRNGKey(0))` in a loop that makes a new `abc = ABC()` each iteration, and the count of live `jax.core.Var` objects grows at every iteration; "If we pull out the `body_fn` function and use it directly, the count of all objects types remains the same per iteration". `fori_loop` outside any jit traces and compiles its body, and finds that trace again only for the same function object; `abc.body_fn` is a new bound method of a new object each time. Running it here, each iteration compiles the loop again (backend compilations 3, 4, ..., 8 after six iterations).
Transcribed: the snippet from the issue thread; the `gc.get_objects()` census and its printing are replaced by a count of backend compilations (a `jax.monitoring` listener) after each iteration, the loop runs six times instead of three, and the key is made once before the loop.
Hard: the function given to `lax.fori_loop` is a bound method of an instance made in the same loop body, at module level and under no jit; a rule that knows only lambdas and local functions as fresh callables misses a method bound to a fresh object.
"""
import jax
from jax import numpy as np
from jax import lax, random

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


class ABC:
    def body_fn(self, i, key):
        key, _ = random.split(key)
        return key


key0 = random.PRNGKey(0)
counts = []
for i in range(6):
    abc = ABC()
    value = lax.fori_loop(0, 10, abc.body_fn, key0)  # expect: jit-bound-method
    counts.append(compiles)
print("backend compilations after each iteration:", counts)
assert counts[-1] - counts[0] == 5, counts
print("BUG: every iteration compiles the fori_loop again")
