"""Source: https://github.com/google/brax/issues/349
Library: plain-jax
Correct: a maintainer's example of the intended way to run a Brax environment fast: the environment is created once and its bound methods are jitted once, reset = jax.jit(env.reset) and step = jax.jit(env.step), outside the loop; the environment is never changed afterwards, so the jitted bound methods compile once each and every step reuses them. A checker that reported every jax.jit(obj.method) would be wrong here.
Transcribed: as posted in the thread.
Run: no (brax does not import here: its mujoco dependency is installed without its core bindings)
"""
import time
import jax
from brax import envs

env = envs.create(env_name='halfcheetah', backend='generalized')
reset = jax.jit(env.reset)
step = jax.jit(env.step)
seed = jax.random.PRNGKey(777)
reset_seed, state_seed = jax.random.split(seed)
t = time.time()
state = reset(reset_seed)
print(f"{time.time() - t:.3f} sec to RESET")
for i in range(5):
    t = time.time()
    state_seed, seed = jax.random.split(state_seed)
    jax_action = jax.random.normal(seed, (env.action_size,))
    state = step(state=state, action=jax_action)
    print(f"{time.time() - t:.3f} sec to STEP")
