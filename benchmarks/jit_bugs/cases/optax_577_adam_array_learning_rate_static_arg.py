"""Source: https://github.com/google-deepmind/optax/issues/577
Library: plain-jax
Reported: two optax optimizers that differ only in their array learning rate, each passed to a function jitted with the optimizer static, compile the function twice; the optimizer is a GradientTransformation of closures, so jit can only key its cache on those closures' identity (and the learning rate array it closes over is compiled in as a constant).
Transcribed: as reported.
Hard: optax.adam returns a GradientTransformation NamedTuple whose init and update fields are closures made afresh by every optax.adam call; the NamedTuple hashes, but by the closures' identity.
"""
import functools as ft
import jax
import jax.numpy as jnp
import optax

optim1 = optax.adam(jnp.array(3e-3))
optim2 = optax.adam(jnp.array(3e-4))

@ft.partial(jax.jit, static_argnums=0)  # post-pytree-isation, this would probably just be `jax.jit`
def evaluate(optim, params):
    print("Compiling!")
    state = optim.init(params)
    grads = jnp.zeros_like(params)
    updates, new_state = optim.update(grads, state)
    new_params = optax.apply_updates(params, updates)
    return new_params, new_state

evaluate(optim1, jnp.array(0))  # Compiling!  # expect: static-fresh-callable
evaluate(optim2, jnp.array(0))  # Compiling!  # expect: static-fresh-callable
