"""Source: https://github.com/google-deepmind/optax/issues/197
Library: plain-jax
Reported: an optax optimizer built afresh in each iteration and passed in a static position makes jit compile the function every time (100 compilations for 100 equal optimizers), where an optimizer that is a pytree compiles once.
Transcribed: the reproduction posted in the thread; tjax's dataclass became flax.struct.dataclass (both make a pytree dataclass), and the tjax half of the comparison (tjax.gradient.adam, not installed) is left out.
Hard: optax.adam returns a GradientTransformation NamedTuple whose init and update fields are closures made afresh by every call, so equal optimizers hash differently; the value reaches the static position as the loop variable gt1.
"""
from typing import Any

import jax.numpy as jnp
from jax import grad, jit
from jax.lax import scan
from optax import adam
from flax.struct import dataclass


@dataclass
class State:
    parameters: float
    gt_state: Any

def loss(parameters):
    return jnp.square(parameters - 1.0)

def inference(gt: Any):
    global compiled_times
    compiled_times += 1
    def do_one(state: State, _: None):
        gradient = grad(loss)(state.parameters)
        new_gradient, gt_state = gt.update(gradient, state.gt_state, state.parameters)
        parameters = state.parameters + new_gradient
        return State(parameters, gt_state), parameters

    state = State(0.0, gt.init(0.0))
    final_state, trajectory = scan(do_one, state, None, 100)
    return trajectory  #final_state.parameters

compiled_times = 0
for _ in range(100):
    gt1 = adam(0.05)
    jit(inference, static_argnums=0)(gt1)  # expect: static-fresh-callable
print(f"optax compiled {compiled_times} times")
