"""Source: https://github.com/patrick-kidger/equinox/issues/940
Library: plain-jax
Reported: an eqx.filter_jit training step retraces (tripping eqx.debug.assert_max_traces) whenever it is given a new optax optimizer built with identical parameters, because the GradientTransformationExtraArgs that optax returns does not hash equal for a new instance; filter_jit holds the optimizer, a non-array argument, static.
Transcribed: the report's module, loss and loss_grad; the stored copy of the report is cut off inside the test function, after `@eqx.filter_jit` and `@eqx.debug.assert_max_tra`, so the test is completed as the report describes it: a step function (max_traces=1) taking the model, the optimizer state and the optimizer, called once with each of two optimizers built with identical parameters (the second call retraces), and the test is called at the end.
Hard: the optimizer reaches a static position only because filter_jit treats every non-array argument as static; its init and update fields are closures made afresh by every optax.adam call.
"""
from jaxtyping import Array, Float
import equinox as eqx
import optax
from jax import numpy as jnp
import jax


class Simple(eqx.Module):
    layer: eqx.nn.Linear

    def __init__(self, key):
        self.layer = eqx.nn.Linear(10, 1, key=key)

    def __call__(self, x: Float[Array, "10"]) -> Float[Array, "1"]:
        x = self.layer(x)
        return x


def loss_fn(model, x, y):
    y_pred = model(x)
    return jnp.mean((y - y_pred) ** 2)


loss_grad = eqx.filter_jit(eqx.filter_value_and_grad(eqx.debug.assert_max_traces(loss_fn, max_traces=1), has_aux=False))

def test_no_closure_two_opts():

    key = jax.random.PRNGKey(0)
    key1, key2 = jax.random.split(key)
    model = Simple(key)

    @eqx.filter_jit
    @eqx.debug.assert_max_traces(max_traces=1)
    def step(model, opt_state, opt, x, y):
        loss, grads = loss_grad(model, x, y)
        updates, opt_state = opt.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return loss, model, opt_state

    x = jax.random.normal(key1, (10,))
    y = jax.random.normal(key2, (1,))

    opt1 = optax.adam(1e-3)
    opt_state1 = opt1.init(eqx.filter(model, eqx.is_array))
    step(model, opt_state1, opt1, x, y)  # expect: static-fresh-callable

    opt2 = optax.adam(1e-3)
    opt_state2 = opt2.init(eqx.filter(model, eqx.is_array))
    step(model, opt_state2, opt2, x, y)  # retraces  # expect: static-fresh-callable


test_no_closure_two_opts()
