"""Source: https://github.com/google-deepmind/optax/blob/0cb437f63476e7845a7ce8e411a22348e1ad8792/examples/ogda_example.ipynb
Library: plain-jax
Correct: optax's "Optimistic Gradient Descent in a Bilinear Min-Max Problem" example. `optimise` defines `@jax.jit def step` once, before its loop of `n_steps` calls, so each `optimise` call compiles `step` once and reuses it for every step; the two module-level `optimise` calls (GDA, then OGDA) hand it different optimisers, which close over different update rules and so are different programs that must compile anyway. The checker must not call the local jitted function fresh per iteration: it is made outside the loop that calls it.
Transcribed: the notebook's code cells in order (the `f` objective, `optimise`, the optimiser set-up and the two runs), unchanged but for `n_steps=200` in the calls (the default 1000 is only slower) and the plotting cells, which are dropped (matplotlib), replaced by a print of the final iterates.
"""
import jax
import jax.numpy as jnp
import optax


def f(params: jnp.ndarray) -> jnp.ndarray:
  """Objective: min_x max_y xy."""
  return params["x"] * params["y"]


def optimise(params: optax.Params, x_optimiser: optax.GradientTransformation, y_optimiser: optax.GradientTransformation, n_steps: int = 1000, display_every: int = 100) -> optax.Params:
  """An optimisation loop minimising x and maximising y."""

  x_opt_state = x_optimiser.init(params["x"])
  y_opt_state = y_optimiser.init(params["y"])
  param_hist = [params]
  f_hist = []

  @jax.jit
  def step(params, x_opt_state, y_opt_state):
    f_value, grads = jax.value_and_grad(f)(params)
    x_update, x_opt_state = x_optimiser.update(grads["x"], x_opt_state, params["x"])
    # note that we"re maximising y so we feed in the negative gradient to the OGD update
    y_update, y_opt_state = y_optimiser.update(-grads["y"], y_opt_state, params["y"])
    updates = {"x": x_update, "y": y_update}
    params = optax.apply_updates(params, updates)
    return params, x_opt_state, y_opt_state, f_value

  for k in range(n_steps):
    params, x_opt_state, y_opt_state, f_value = step(params, x_opt_state, y_opt_state)
    param_hist.append(params)
    f_hist.append(f_value)
    if k % display_every == 0:
      print(f"step {k}, f(x, y) = {f_value}, (x, y) = ({params['x']}, {params['y']})")

  return param_hist, f_hist


initial_params = {
    "x": jnp.array(1.0),
    "y": jnp.array(1.0)
}

# GDA
x_gd_optimiser = optax.sgd(learning_rate=0.1)
y_ga_optimiser = optax.sgd(learning_rate=0.1)

# OGDA
x_ogd_optimiser = optax.optimistic_gradient_descent(learning_rate=0.1)
y_oga_optimiser = optax.optimistic_gradient_descent(learning_rate=0.1)

gda_hist, gda_f_hist = optimise(initial_params, x_gd_optimiser, y_ga_optimiser, n_steps=200)
ogda_hist, ogda_f_hist = optimise(initial_params, x_ogd_optimiser, y_oga_optimiser, n_steps=200)

print("GDA final (x, y):", float(gda_hist[-1]["x"]), float(gda_hist[-1]["y"]))
print("OGDA final (x, y):", float(ogda_hist[-1]["x"]), float(ogda_hist[-1]["y"]))
