"""Source: https://github.com/jax-ml/jax/issues/1567
Library: plain-jax
Reported: a `World` class jits its `step` method with `@partial(jit, static_argnums=(0,))` (a static `self`) and `step` updates `self.v` and `self.p`; after 1000 steps `print(world.p)` shows `Traced<ShapedArray(float32[2])>` instead of a position. The maintainer's answer: `step` has a side effect on `self`, and jit only supports pure functions. The static `self` hashes by identity, so only the first call traces `step` (storing tracers on the instance); the other 999 calls hit the cache and run the compiled code, which returns nothing and changes nothing, so the world never moves.
Transcribed: the report's code unchanged (`jax.numpy as np`, as in the report).
"""
import jax.numpy as np
from jax import jit
from functools import partial


class World:
    def __init__(self, p, v):
        self.p = p
        self.v = v

    @partial(jit, static_argnums=(0,))  # expect: static-identity-hash
    def step(self, dt):
        a = - 9.8
        self.v += a * dt
        self.p += self.v *dt


world = World(np.array([0, 0]), np.array([1, 1]))

for i in range(1000):
    world.step(0.01)
print(world.p)
