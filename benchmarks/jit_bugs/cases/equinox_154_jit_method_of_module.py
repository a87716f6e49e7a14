"""Source: https://github.com/patrick-kidger/equinox/issues/154
Library: equinox
Correct: an equinox Module is a pytree, so @jax.jit on its method traces self's arrays and keeps the static_field flag apply_act static; the commenter needs static_field for exactly this.
Transcribed: an instance and a call were added (the comment shows only the class).
"""
import jax
import jax.numpy as jnp
import equinox as eqx

class LinearAndActivation(eqx.Module):
  m: eqx.Module
  apply_act: bool = eqx.static_field()

  def __init__(self, n_in, n_out, apply_act, key):
      self.m = eqx.nn.Linear(n_in, n_out, key=key)
      self.apply_act = apply_act
  
  @jax.jit
  def __call__(self, x):
      x = self.m(x)
      if self.apply_act:
          x = jax.nn.relu(x)
      return x

layer = LinearAndActivation(2, 3, True, jax.random.PRNGKey(0))
print(layer(jnp.ones(2)))
