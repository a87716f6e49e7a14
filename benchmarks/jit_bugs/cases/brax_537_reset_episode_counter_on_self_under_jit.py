"""Source: https://github.com/google/brax/issues/537
Library: plain-jax
Reported: "Best Practice for Passing/Storing Training Progress for Curriculum Learning in Brax": to grow the difficulty with training progress the reporter stored a counter on the environment, `self.num_episodes = 0`, and called `self.num_episodes = self.num_episodes + 1` in `reset`, but "this value never actually changes despite the `reset` calls". Brax's PPO trainer jits the environment's bound `reset` (`reset_fn = jax.jit(jax.vmap(env.reset))`), so the increment runs once, while jit traces, and every later reset runs the compiled code with the count it saw then. Running it here, five calls of the jitted reset leave `env.num_episodes` at 1 and every reset uses the difficulty traced with `num_episodes = 1`.
Transcribed: the reporter's two lines (`self.num_episodes = 0` in the constructor, `self.num_episodes = self.num_episodes + 1` in `reset`) in a minimal brax-style environment (a `State` flax struct, `reset(rng)` returning it, a `gravity` that grows with `num_episodes` as the curriculum the issue describes); the trainer's `reset_fn = jax.jit(jax.vmap(env.reset))` from brax/training/agents/ppo/train.py and a loop calling it five times stand in for the training loop.
Hard: the jitted function is `jax.vmap(env.reset)`, a transformation of a bound method, and the change to the object is made by the jitted method itself, which runs only while tracing.
"""
import jax
import jax.numpy as jp
from flax import struct


@struct.dataclass
class State:
    pipeline_state: jax.Array
    obs: jax.Array
    reward: jax.Array
    done: jax.Array
    info: dict


class CurriculumEnv:
    def __init__(self):
        self.num_episodes = 0

    def reset(self, rng):
        self.num_episodes = self.num_episodes + 1
        gravity = -9.81 * (1.0 + 0.1 * self.num_episodes)  # harder with every episode
        qpos = jax.random.uniform(rng, (2,))
        obs = jp.concatenate([qpos, jp.array([gravity])])
        return State(qpos, obs, jp.zeros(()), jp.zeros(()), {"gravity": gravity})


env = CurriculumEnv()
reset_fn = jax.jit(jax.vmap(env.reset))  # expect: jit-bound-method

key = jax.random.PRNGKey(0)
gravities = []
for episode in range(5):
    key, sub = jax.random.split(key)
    state = reset_fn(jax.random.split(sub, 4))
    gravities.append(float(state.info["gravity"][0]))

print("env.num_episodes after 5 resets:", env.num_episodes, "gravity per reset:", gravities)
assert env.num_episodes == 1 and len(set(gravities)) == 1, (env.num_episodes, gravities)
print("BUG: the counter only advanced while tracing; every reset used the first episode's difficulty")
