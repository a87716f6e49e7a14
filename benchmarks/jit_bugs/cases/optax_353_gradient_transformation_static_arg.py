"""Source: https://github.com/google-deepmind/optax/issues/353
Library: plain-jax
Reported: an optax optimizer passed in a static position recompiles the function every time the optimizer is built again, although it is the same optimizer each time.
Hard: optax.adam returns a GradientTransformation NamedTuple whose init and update fields are closures made afresh by every optax.adam call, so equal optimizers hash differently.
"""
from functools import partial
import jax
import jax.numpy as jnp
import optax

@partial(jax.jit, static_argnames=("optimizer",))
def train_step(optimizer, opt_state):
    print("compiling")

def train():
    optimizer = optax.adam(1e-2)
    opt_state = optimizer.init({"foo": jnp.zeros((100, 100))})
    
    for _ in range(10):
        train_step(optimizer, opt_state)  # expect: static-fresh-callable

train()
train()
train()
