"""Source: https://github.com/QuantEcon/lecture-jax/blob/f25f07f9a201f2bf236716683163a4aa758886a8/lectures/jax_nn.md
Library: plain-jax
Correct: the lecture keeps its hyperparameters in `Config(NamedTuple)` (ints, a float and a tuple `layer_sizes`) and passes it with `static_argnames=['config']` to the jitted training routines; the network parameters are a list of `LayerParams(NamedTuple)` of arrays, traced as a pytree; the optax solver is built inside the jitted function from `config.learning_rate`, so it is no static value. A NamedTuple of hashable values hashes and compares by value, so the warm-up call and the timed call (an equal `config`, new parameter arrays) share one compilation. A checker that treats every class instance in a static position as identity-hashed, or a tuple field as a possible list, would be wrong here.
Transcribed: the lecture's Config, generate_data, LayerParams, initialize_layer, initialize_network, f, loss_fn, loss_gradient and `train_jax_optax` cells and its execution cell (warm-up run, then the timed run), from lectures/jax_nn.md at commit f25f07f9a201f2bf236716683163a4aa758886a8; the Keras parts, plots and timing prints are left out; a trace counter and a check were added.
"""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax

TRACES = [0]


class Config(NamedTuple):
    epochs: int = 4000             # Number of passes through the data set
    learning_rate: float = 0.001   # Learning rate for gradient descent
    layer_sizes: tuple = (1, 10, 10, 10, 1)  # Layer sizes
    seed: int = 14                 # Random seed for data generation


def generate_data(
        key: jax.Array,         # JAX random key
        data_size: int = 400,   # Sample size
        x_min: float = 0.0,     # Minimum x value
        x_max: float = 5.0      # Maximum x value
    ):
    """
    Generate synthetic regression data.
    """
    x = jnp.linspace(x_min, x_max, num=data_size)
    ϵ = 0.2 * jax.random.normal(key, shape=(data_size,))
    y = x**0.5 + jnp.sin(x) + ϵ
    # Return observations as column vectors
    x = jnp.reshape(x, (data_size, 1))
    y = jnp.reshape(y, (data_size, 1))
    return x, y


class LayerParams(NamedTuple):
    """
    Stores parameters for one layer of the neural network.

    """
    W: jax.Array     # weights
    b: jax.Array     # biases


def initialize_layer(in_dim, out_dim, key):
    """
    Initialize weights and biases for a single layer of the network.
    Use He initialization for weights and ones for biases.
    """
    W = jax.random.normal(key, shape=(in_dim, out_dim)) * jnp.sqrt(2 / in_dim)
    b = jnp.ones((1, out_dim))
    return LayerParams(W, b)


def initialize_network(
        key: jax.Array,     # JAX random key
        config: Config      # contains configuration data
    ):
    """
    Build a network by initializing all of the parameters.
    A network is a list of LayerParams instances, each
    containing a weight-bias pair (W, b).
    """
    layer_sizes = config.layer_sizes
    params = []
    for i in range(len(layer_sizes) - 1):
        key, subkey = jax.random.split(key)
        layer = initialize_layer(
            layer_sizes[i],      # in dimension for layer
            layer_sizes[i + 1],  # out dimension for layer
            subkey
        )
        params.append(layer)
    return params


def f(
        θ: list,                        # Network parameters (pytree)
        x: jax.Array,                 # Input data (row vector)
        σ: callable = jnp.tanh          # Activation function
    ):
    """
    Perform a forward pass over the network to evaluate f(θ, x).
    """
    *hidden, last = θ
    for layer in hidden:
        x = σ(x @ layer.W + layer.b)
    x = x @ last.W + last.b
    return x 


def loss_fn(
        θ: list,            # Network parameters (pytree)
        x: jax.Array,     # Input data
        y: jax.Array      # Target data
    ):
    return jnp.mean((f(θ, x) - y)**2)


loss_gradient = jax.grad(loss_fn)


@partial(jax.jit, static_argnames=['config'])
def train_jax_optax(
        θ: list,                    # Initial parameters (pytree)
        x: jax.Array,             # Training input data
        y: jax.Array,             # Training target data
        config: Config              # contains configuration data
    ):
    " Train model using Optax SGD optimizer. "
    TRACES[0] += 1
    epochs = config.epochs
    learning_rate = config.learning_rate
    solver = optax.sgd(learning_rate)
    opt_state = solver.init(θ)

    def update(_, loop_state):
        θ, opt_state = loop_state
        grad = loss_gradient(θ, x, y)
        updates, new_opt_state = solver.update(grad, opt_state, θ)
        θ_new = optax.apply_updates(θ, updates)
        new_loop_state = θ_new, new_opt_state
        return new_loop_state

    initial_loop_state = θ, opt_state
    final_loop_state = jax.lax.fori_loop(
        0, epochs, update, initial_loop_state
    )
    θ_final, _ = final_loop_state
    return θ_final


config = Config()
key = jax.random.key(config.seed)
key_train, key_validate = jax.random.split(key)
x_train, y_train = generate_data(key_train)
x_validate, y_validate = generate_data(key_validate)

param_key = jax.random.key(1234)
θ = initialize_network(param_key, config)

# Warmup run to trigger JIT compilation
train_jax_optax(θ, x_train, y_train, config)

# Reset and time the actual run
θ = initialize_network(param_key, config)
θ = train_jax_optax(θ, x_train, y_train, config)
θ[0].W.block_until_ready()  # Ensure computation completes

optax_sgd_mse = loss_fn(θ, x_validate, y_validate)
print(f"Final MSE on validation data = {optax_sgd_mse:.6f}")
assert TRACES[0] == 1, TRACES
print("OK: the NamedTuple config is one static value; one compilation for both runs")
