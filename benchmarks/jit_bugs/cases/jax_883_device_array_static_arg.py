"""Source: https://github.com/jax-ml/jax/issues/883
Library: plain-jax
Reported: a DeviceArray passed in a static position works once, then the second call fails while jit looks it up in its cache.
Transcribed: `from jax import jit, partial` imports partial from functools (jax.partial was removed).
Hard: the array reaches the static position through a local variable of an unannotated function.
"""
from functools import partial

import jax.numpy as np
from jax import jit

@partial(jit, static_argnums=(1,))
def f(x,v):
    return x

def main():
    x = np.ones((10,10))
    v = np.array([1,2,3])
    firstCall = f(x,v)  # expect: static-dynamic-child
    print(firstCall)
    secondCall = f(x,v)  # expect: static-dynamic-child
    print(secondCall)

if __name__=='__main__':
    main()
