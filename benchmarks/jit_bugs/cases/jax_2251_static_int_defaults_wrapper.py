"""Source: https://github.com/jax-ml/jax/issues/2251
Library: plain-jax
Correct: the reporter's fast version: a module-level function jitted once with static_argnums=(1, 2, 3), called through a plain wrapper whose step, t and T are Python ints with defaults; T fixes the scan length through np.full(T, step), so it must be static, and ints hash by value, so each distinct T compiles once. The report's slow variant, the same jit defined inside the wrapper and so made afresh on every call, is left out. A checker that reported unannotated wrapper parameters flowing into static positions would be wrong here.
Transcribed: the comment's module-level variant and its call; the thread's infect, InfectState, x0 and a are defined earlier in the thread than the stored copy shows, so minimal stand-ins were added (a NamedTuple state and a scan body that scales it), with jax.numpy as np and jax's jit and lax imported.
Hard: to stay silent, the checker must follow the wrapper's int defaults (and the T=5 keyword) into the static positions.
"""
import functools
from typing import NamedTuple

import jax.numpy as np
from jax import jit, lax


class InfectState(NamedTuple):
    x: np.ndarray
    a: np.ndarray


def infect(state, step):
    new = InfectState(state.x + step * state.a * state.x, state.a)
    return new, new.x


x0 = np.ones(3)
a = np.full(3, 0.1)


@functools.partial(jit, static_argnums=(1,2,3))
def _pandemic_scan(state, step, t, T):
    return lax.scan(
        infect, 
        InfectState(x0, a), 
        np.full(T,step)
    )

def pandemic_scan(state, step=1, t=0, T=5):
    return _pandemic_scan(state, step, t, T)


print(pandemic_scan(InfectState(x0, a), T=5)[1])
print(pandemic_scan(InfectState(x0, a), T=5)[1])
