"""Source: https://github.com/patrick-kidger/equinox/issues/686
Library: equinox
Reported: an eqx.filter_jit'd training step compiles again, tripping eqx.debug.assert_max_traces, when the model is built again with the same arguments: the module stores jax.jit(fk_fn), a new jitted-function object at every construction, in a field that filter_jit treats as static.
Transcribed: the report's classes and functions; its main block is cut off in the stored copy after 'if __name__ ==', so it is completed as the report describes it: a forward-kinematics function, data, an optax optimizer, and two optimization loops, each starting from a freshly built module (the second loop recompiles).
Hard: the field is declared Callable and is not marked static; filter_jit holds every non-array leaf static, and the value stored there is made by jax.jit(...) in __init__, so every instance holds a different object that hashes by identity.
"""
import jax
import jax.numpy as jnp
import equinox as eqx
import optax
from typing import Callable
from jaxtyping import Array


class ForwardKinematicTrajectory(eqx.Module):
    trajectory: eqx.Module
    scale_mixer: Array
    forward: Callable

    def __init__(self, fk_fn: Callable):
        self.trajectory = eqx.nn.Linear(1, 3, key=jax.random.PRNGKey(0))
        self.scale_mixer = jnp.ones((3, 1))
        self.forward = jax.jit(fk_fn)  # expect: static-fresh-callable

    def __call__(self, data):
        """Meant to be vmapped"""
        return self.forward(self.trajectory(data) * self.scale_mixer)

def loss(model: ForwardKinematicTrajectory, X, y):
    return jnp.mean(jnp.square(jax.vmap(model)(X) - y))


@eqx.filter_jit
@eqx.debug.assert_max_traces(max_traces=1)
def step(model, opt_state, X, y, loss_grad, opt):
    val, grads = loss_grad(model, X, y)
    updates, opt_state = opt.update(grads, opt_state, model)
    model = eqx.apply_updates(model, updates)
    return val, model, opt_state


if __name__ == "__main__":
    def fk_fn(q):
        return jnp.cos(q)

    X = jnp.linspace(0., 1., 8)[:, None]
    y = jnp.zeros((8, 3, 3))
    loss_grad = eqx.filter_value_and_grad(loss)
    opt = optax.adam(1e-3)

    for _ in range(2):
        model = ForwardKinematicTrajectory(fk_fn)
        opt_state = opt.init(eqx.filter(model, eqx.is_array))
        for _ in range(3):
            val, model, opt_state = step(model, opt_state, X, y, loss_grad, opt)
        print(val)
