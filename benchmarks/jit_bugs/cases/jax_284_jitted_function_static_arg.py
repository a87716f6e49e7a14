"""Source: https://github.com/jax-ml/jax/issues/284
Library: plain-jax
Correct: a jitted module-level function, made once, is passed in the static position of two other jitted functions (static_argnums=(0,)); a function object hashes and compares by identity, which is right here because it is the same object on every call, so g and h each compile once and then hit their caches. What the report asks about (f traced again inside g) is ordinary nested tracing, not a static-argument fault; a checker that reported a callable in a static position would be wrong here.
Transcribed: as reported, with the imports the snippet uses (numpy as onp, jax, jax.numpy as np).
Hard: to stay silent, the checker must accept a function object made once at module level (here itself a jitted function) in a static position.
"""
import numpy as onp
import jax
import jax.numpy as np

x = onp.random.rand(1024).astype(onp.float32)
x = jax.device_put(x)

def f(x):
    print('f x', x)
    return np.square(x)

def g(f, x):
    print('g f', f)
    print('g x', x)
    return f(x)

def h(f, x):
    print('h f', f)
    print('h x', x)
    return f(x)

f = jax.jit(f)
g = jax.jit(g, static_argnums=(0,))
h = jax.jit(h, static_argnums=(0,))

f(x)  # will trigger compilation of f
f(x)  # reuse cache
print('')
g(f, x)  # will trigger compilation of g and another compilation of f
g(f, x)  # reuse cache
print('')
h(f, x)  # will trigger compilation of h, but uses cached f
h(f, x)  # reuse cache
