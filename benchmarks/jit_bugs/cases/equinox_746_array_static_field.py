"""Source: https://github.com/patrick-kidger/equinox/issues/746
Library: equinox
Reported: a Module with a jax.Array in an eqx.field(static=True) works as an argument of a filter_jit function once; the call with a second instance fails with a ValueError.
Hard: the static marker is equinox's eqx.field(static=True).
"""
import jax
import jax.numpy as np
import jax.random as jr
import equinox as eqx


class Data(eqx.Module):
    data: jax.Array = eqx.field(static=True)  # expect: static-dynamic-child

    def __init__(self, seed):
        self.data = jr.uniform(jr.PRNGKey(seed), (10, 10))


class Model(eqx.Module):
    foo: jax.Array

    def __init__(self, foo):
        self.foo = np.array(foo)

@eqx.filter_jit
@eqx.filter_value_and_grad
def loss_fn(model, data):
    return np.sum(model.foo - data.data)

model = Model(1.0)
data0, data1 = Data(0), Data(1)

loss, grads = loss_fn(model, data0) # This call evaluates fine
loss, grads = loss_fn(model, data1) # This call throws a ValueError
