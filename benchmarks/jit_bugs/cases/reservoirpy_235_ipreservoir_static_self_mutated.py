"""Source: https://github.com/reservoirpy/reservoirpy/issues/235
Library: plain-jax
Reported: on the jax backend, IPReservoir's intrinsic plasticity has no effect: IPReservoir._step is jitted with static_argnums=(0,) (a static self) while fit/partial_fit update self.a and self.b in place, so the compiled step keeps the a and b it was first traced with and the later updates are ignored ('The compiled step does not react to a change of a').
Transcribed: IPReservoir from reservoirpy/jax/nodes/intrinsic_plasticity.py at commit 1fc11351bfba7f4b9a35464a1b99d804a5d6ccea (which still has the bug), cut to the fields the step uses: its docstring, the input checks and the matrix initializers are left out (W, Win and bias are drawn with jax.random in initialize), get_function("tanh") became jnp.tanh, and step is the base Node.step from reservoirpy/jax/node.py without its input checks. The report's reproduction is cut off in the stored copy after the node is built; it is completed as the report describes it: call the step, change a, call the step again with the same state and input (the output does not change), then fit (which updates a and b in place).
Hard: self is static by static_argnums=(0,) on a method of a plain class; initialize, step and partial_fit assign attributes of self after construction.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class IPReservoir:
    initialized: bool = False

    def __init__(self, units=None, sr=None, lr=1.0, mu=0.0, sigma=1.0, learning_rate=5e-4, epochs=1, seed=0):
        self.units = units
        self.sr = sr
        self.lr = lr
        self.mu = mu
        self.sigma = sigma
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.activation = jnp.tanh
        self.gradient = partial(IPReservoir.gaussian_gradients, mu=mu, sigma=sigma)
        self.output_dim = units
        self.seed = seed

    def initialize(self, x, y=None):
        self.input_dim = x.shape[-1]
        Win_key, W_key, bias_key = jax.random.split(jax.random.PRNGKey(self.seed), 3)
        self.Win = jax.random.uniform(Win_key, (self.units, self.input_dim), minval=-1.0, maxval=1.0)
        self.W = jax.random.uniform(W_key, (self.units, self.units), minval=-1.0, maxval=1.0) * 0.1
        self.bias = jax.random.uniform(bias_key, (self.units,), minval=-1.0, maxval=1.0)

        self.a = jnp.ones((self.output_dim,))
        self.b = jnp.zeros((self.output_dim,))

        self.state = dict(internal=jnp.zeros((self.output_dim,)), out=jnp.zeros((self.output_dim,)))

        self.initialized = True

    @partial(jax.jit, static_argnums=(0,))  # expect: static-identity-hash
    def _step(self, state, x):
        W = self.W  # NxN
        Win = self.Win  # NxI
        bias = self.bias  # N or float
        f = self.activation
        lr = self.lr
        (internal, external) = state["internal"], state["out"]

        next_state = W @ external + Win @ x + bias
        next_state = (1 - lr) * internal + lr * next_state

        next_external = f(self.a * next_state + self.b)

        return {"internal": next_state, "out": next_external}

    def step(self, x=None):
        if not self.initialized:
            self.initialize(x)

        new_state = self._step(self.state, x)

        self.state = new_state
        return new_state["out"]

    def fit(self, x, y=None, warmup=0):
        if not self.initialized:
            self.initialize(x, y)

        for _epoch in range(self.epochs):
            self.partial_fit(x[warmup:])

        return self

    def partial_fit(self, x):
        for u in x:
            post_state = self.step(u)
            pre_state = self.state["internal"]

            delta_a, delta_b = self.gradient(x=pre_state.T, y=post_state.T, a=self.a)
            self.a += self.learning_rate * delta_a
            self.b += self.learning_rate * delta_b

    def gaussian_gradients(x, y, a, mu, sigma):
        """KL loss gradients of neurons with tanh activation (~ Normal(mu, sigma))."""
        sig2 = sigma**2
        delta_b = -(-(mu / sig2) + (y / sig2) * (2 * sig2 + 1 - y**2 + mu * y))
        delta_a = (1 / a) + delta_b * x
        return delta_a, delta_b


x = np.random.default_rng(0).normal(size=(10, 3))
node = IPReservoir(units=5)
node.initialize(x[0])

state = node.state
before = node._step(state, x[0])["out"]
node.a = 2.0 * node.a
after = node._step(state, x[0])["out"]
print("output unchanged after changing a:", bool(jnp.allclose(before, after)))

node.fit(x)
print("a after fit:", node.a)
