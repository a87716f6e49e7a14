"""Source: https://github.com/jax-ml/jax/issues/14185
Library: plain-jax
Correct: mattjj's reply moves jax.jit outside jax.grad: `eval(jax.jit(jax.grad(f)), ...)`. The jit object is
built once, outside the loop, and eval calls that same object 1000 times, so it compiles once; jax.grad(f)
being a fresh function is harmless because jax.jit is applied to it only once.
Transcribed: eval, f and f_jit copied from the report (including the name `eval`, which shadows the builtin);
the calls are mattjj's suggested ones. Added a trace counter in f / f_jit and a check that each jitted
gradient traced once.
"""
import time

import jax
import numpy as np

TRACES = {"f": 0, "f_jit": 0}


def eval(df, method):
    start_time = time.time()
    [df(i) for i in np.arange(0, 1, 0.001)]
    print(f"{method}: {(time.time() - start_time)} s")


def f(x):
    TRACES["f"] += 1
    return x**2 + x


@jax.jit
def f_jit(x):
    TRACES["f_jit"] += 1
    return x**2 + x


if __name__ == "__main__":
    eval(jax.jit(jax.grad(f)), "jax + jit outside grad")
    eval(jax.jit(jax.grad(f_jit)), "jax + jit outside grad of jit")
    print("traces:", TRACES)
    assert TRACES == {"f": 1, "f_jit": 1}, TRACES
    print("OK: jax.jit built once outside the loop compiles once")
