"""Source: https://github.com/jax-ml/jax/issues/282
Library: plain-jax
Reported: "jit cache leaks memory": with `--jit`, GPU memory grows by 1 GiB per iteration. Each iteration of the loop defines a new `f` closing over the 1 GiB array `x` and jits it, so every iteration is a cache miss (jit caches per function object): `f` is traced and compiled again, `x` is baked into each new executable as a constant, and the compilation cache keeps them all. The reporter: "in general that does not work because I might need to redefine (and re-jit a function in a loop)"; the workaround in the report passes `x` as an argument to a function jitted once outside the loop.
Transcribed: the report's first script. `parser.parse_args()` is given `["--jit"]` so the jitted path runs; `x` is repeated 1 time instead of 256 (4 MiB instead of 1 GiB) so that the case runs on CPU; `jax.device_put` and `onp` are kept; a trace counter in `f` and a print after each iteration were added.
Hard: `f` is a `def` inside the loop body of `main`, rebound by `f = jax.jit(f)` under a command-line flag and called at once.
"""
#!/usr/bin/env python3
import argparse
import jax
import jax.numpy as np
import numpy as onp

traces = 0


def main():
    global traces
    parser = argparse.ArgumentParser()
    parser.add_argument('--jit', action='store_true')
    args = parser.parse_args(["--jit"])

    x = onp.random.rand(1024, 1024).astype(onp.float32)
    x = onp.repeat(x, 1, axis=0)
    x = jax.device_put(x)
    # x is 1 GiB large

    v = onp.random.rand(1024).astype(onp.float32)
    v = jax.device_put(v)

    for i in range(16):
        print(f'{i + 1}. iteration')
        before = traces

        def f(v):
            global traces
            traces += 1
            return np.dot(x, v)

        if args.jit:
            f = jax.jit(f)  # expect: jit-fresh-function

        f(v)
        print('  traced again:', traces > before)


if __name__ == '__main__':
    main()
