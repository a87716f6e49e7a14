"""Source: https://github.com/RobertTLange/gymnax/issues/14
Library: plain-jax
Correct: the environment's parameters, some of which fix the observation's shape (rows, columns), are passed in the static position of the jitted reset and step (static_argnums=(1,)); as the issue proposes for every environment, they are a FrozenDict built once at module level, which hashes and compares by its items, so each jitted function compiles once for it. A checker that treated the dict-like FrozenDict as an unhashable dict would be wrong here.
Transcribed: gymnax/environments/bsuite/catch.py at commit 9b6fb6e5abf4f11ccaef5fba97ab6302986035bf (catch already used the FrozenDict the issue asks for); the repository's own copy of flax's FrozenDict is imported from flax.core instead, jax.ops.index_update became .at[...].set(...) (removed since), and a reset and two steps were added.
Hard: to stay silent, the checker must know flax.core.FrozenDict hashes by value, and that the module-level params_catch is never rebound.
"""
import jax
import jax.numpy as jnp
from jax import jit
from flax.core import FrozenDict

# JAX Compatible version of Catch bsuite environment. Source:
# https://github.com/deepmind/bsuite/blob/master/bsuite/environments/catch.py

# Default environment parameters
params_catch = FrozenDict({"max_steps_in_episode": 2000,
                           "rows": 10,
                           "columns": 5})


def step(rng_input, params, state, action):
    """ Perform single timestep state transition. """
    # Sample new init state at each step and use only if there was a reset!
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    prev_done = state["prev_done"]

    # Move the paddle + drop the ball.
    dx = action - 1  # [-1, 0, 1] = Left, no-op, right.
    state["paddle_x"] = (jnp.clip(state["paddle_x"] + dx, 0,
                                  params["columns"] - 1)
                         * (1-prev_done) + paddle_x * prev_done)
    state["ball_y"] = (state["ball_y"] + 1) * (1-prev_done) + ball_y * prev_done
    state["ball_x"] = state["ball_x"] * (1-prev_done) + ball_x * prev_done
    state["paddle_y"] = state["paddle_y"] * (1-prev_done) + paddle_y * prev_done

    # Rewrite reward as boolean multiplication
    state["prev_done"] = (ball_y == paddle_y)
    catched = (paddle_x == ball_x)
    reward = state["prev_done"] * (1 * catched + -1 * (1 - catched))

    # Check number of steps in episode termination condition
    state["time"] += 1
    done_steps = (state["time"] > params["max_steps_in_episode"])
    return get_obs(state, params), state, reward, done_steps, {}


def sample_init_state(rng_input, params):
    """ Sample a new initial state. """
    high = jnp.zeros((params["rows"], params["columns"]))
    ball_x = jax.random.randint(rng_input, shape=(),
                                minval=0, maxval=params["columns"])
    ball_y = 0
    paddle_x = params["columns"] // 2
    paddle_y = params["rows"] - 1
    return ball_x, ball_y, paddle_x, paddle_y


def reset(rng_input, params):
    """ Reset environment state by sampling initial position. """
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    # Last two state vector correspond to timestep and done
    state = {"ball_x": ball_x,
             "ball_y": ball_y,
             "paddle_x": paddle_x,
             "paddle_y": paddle_y,
             "time": 0,
             "prev_done": 0}
    return get_obs(state, params), state


def get_obs(state, params):
    """ Return observation from raw state trafo. """
    board = jnp.zeros((params["rows"], params["columns"]))
    board = board.at[state["ball_y"],
                     state["ball_x"]].set(1.)
    board = board.at[state["paddle_y"],
                     state["paddle_x"]].set(1.)
    return board


reset_catch = jit(reset, static_argnums=(1,))
step_catch = jit(step, static_argnums=(1,))


rng = jax.random.PRNGKey(0)
obs, state = reset_catch(rng, params_catch)
for t in range(2):
    rng, key = jax.random.split(rng)
    obs, state, reward, done, info = step_catch(key, params_catch, state, 1)
print(obs, reward, done)
