"""Source: https://github.com/jax-ml/jax/issues/5210
Library: plain-jax
Reported: "jax.lax.switch host memory leak": `do_thing()` defines `fn`, which calls `jax.lax.switch(i, [(lambda _: x), (lambda _: y)], None)` with two new lambdas closing over the arrays `x` and `y`, and a loop calls `do_thing()` a thousand times; host memory grows without bound. hawkinsp found that "we are repeatedly compiling `cond` primitive and never getting cache hits for it": `switch` outside any jit compiles the branches it traces, and finds its trace again only for the same function objects, which every call makes anew. Running it here, each of ten calls of `do_thing()` compiles the switch again (backend compilations 4, 5, ..., 13 after the calls).
Transcribed: the issue's snippet; `resource`/`gc`, the `ru_maxrss` record and the matplotlib plot are replaced by a count of backend compilations (a `jax.monitoring` listener) after each of ten calls.
Hard: the lambdas are made inside `fn`, a local function of `do_thing`, and handed to `jax.lax.switch`, which is not under any jit; a loop of the module calls `do_thing`, so every call compiles the switch again.
"""
import numpy as np
import jax, jax.numpy as jp

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)

d = 100

def do_thing():
  i = jp.array(np.random.rand() > 0.5, dtype="int32")
  x = jp.array(np.random.randn(d))
  y = jp.array(np.random.randn(d))
  def fn(i, x, y):
    return jax.lax.switch(i, [(lambda _: x), (lambda _: y)], None)  # expect: jit-fresh-function
  fn(i, x, y)

counts = []
for i in range(10):
  do_thing()
  counts.append(compiles)
print("backend compilations after each call:", counts)
assert counts[-1] - counts[0] == 9, counts
print("BUG: every call of do_thing compiles the switch again")
