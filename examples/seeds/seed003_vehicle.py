"""A plain class as a static argument (TORAX), as written: mutated between two calls, it prints 2 twice."""

import functools

import jax


@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels


x = Vehicle(2)
print(f(x))
x.num_wheels = 4
print(f(x))
