"""Source: https://github.com/patrick-kidger/equinox/issues/11
Library: plain-jax
Reported: an eqx.Module whose fields are lists (of layer modules holding a lambda, and of synapse modules holding weight arrays) cannot have its methods decorated for jax.jit with self static: jit fails with "ValueError: Non-hashable static arguments are not supported" while hashing SimpleModule(layers=[...], synapses=[DenseSynapse(W=DeviceArray(...))], ...).
Transcribed: the report shows only the error message; SimpleModule, NeuronLayer and DenseSynapse are rebuilt from the repr in it (a list of two layers, one with a lambda lagrangian, and a list of one synapse with a weight array); the method is jitted with `partial(jax.jit, static_argnums=0)` as the error (a static argument of type SimpleModule) implies.
Hard: self is static, and the Module hashes its fields by value: the list fields are unhashable (and a synapse holds an array), which only the field declarations show.
"""
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class NeuronLayer(eqx.Module):
    lagrangian: object
    shape: tuple
    tau: float


class DenseSynapse(eqx.Module):
    W: jax.Array


class SimpleModule(eqx.Module):
    layers: list
    synapses: list
    connections: list

    def __init__(self, key):
        self.layers = [
            NeuronLayer(lagrangian=lambda x: jnp.sum(x**2), shape=(32,), tau=1.0),
            NeuronLayer(lagrangian=jax.nn.softmax, shape=(500,), tau=0.0),
        ]
        self.synapses = [DenseSynapse(W=jax.random.normal(key, (32, 500)))]
        self.connections = [(0, 1)]

    @partial(jax.jit, static_argnums=0)  # expect: static-unhashable
    def energy(self, x):
        return jnp.sum(x @ self.synapses[0].W)


model = SimpleModule(jax.random.PRNGKey(0))
print(model.energy(jnp.ones(32)))
