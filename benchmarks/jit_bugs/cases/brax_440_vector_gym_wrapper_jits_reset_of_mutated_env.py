"""Source: https://github.com/google/brax/issues/440
Library: plain-jax
Reported: "Manually Reset Initial Pose of Agent": a wrapper's `set_initial_state` replaces `self.init_pos`, and its `reset` reads it; called through brax's `VectorGymWrapper`, "This works the first time I run it, but subsequent calls result in the same pose being set as the first time I called `set_initial_state`" (the reporter suspects "`VectorGymWrapper` being jitted"). The gym wrapper jits, once in its constructor, a function that calls `self._env.reset`: the wrapped environment is read while tracing, its `init_pos` compiled in as a constant, and later changes to the environment object are never seen.
Transcribed: `set_initial_state` and `reset` from the report, in a wrapper class around the environment; `VectorGymWrapper.__init__` (the jitted `reset`) and `reset` from brax/envs/wrappers/gym.py (the version stored here; the jitted closure is the same in brax 0.9.4, which the reporter used), without the gym observation/action spaces, the batch-size check and `step`/`render`. The brax environment is a stand-in with the attributes the report's `reset` reads (`q`, `sys.q_size()/qd_size()`, `_reset_noise_scale`, `pipeline_init`, `_get_obs`), and the report's `reset` is completed by returning the state (`State` is a stand-in); `init_pos` starts at zeros. The driver sets two poses in turn and resets after each.
Hard: the jitted function is a closure over the gym wrapper, not `obj.method` written out: `reset(key)` calls `self._env.reset`, whose object is changed later by `set_initial_state` (an attribute assigned outside construction that `reset` reads).
"""
from typing import ClassVar, NamedTuple, Optional

import jax
import jax.numpy as jnp


class State(NamedTuple):  # stand-in for brax.envs.base.State
    pipeline_state: jax.Array
    obs: jax.Array


class _Sys:  # stand-in for brax.System
    def q_size(self):
        return 4

    def qd_size(self):
        return 4


class Env:  # stand-in for the reporter's brax environment
    def __init__(self):
        self.sys = _Sys()
        self.q = jnp.zeros(4)
        self._reset_noise_scale = 0.0
        self.init_pos = jnp.zeros(2)

    def pipeline_init(self, q, qd):
        return q

    def _get_obs(self, pipeline_state):
        return pipeline_state


class InitialStateWrapper(Env):  # the reporter's wrapper
    def set_initial_state(self, init_pos: jax.Array):
        self.init_pos = self.init_pos.at[:].set(init_pos)

    def reset(self, rng: jax.Array) -> State:
        rng, rng1, rng2 = jax.random.split(rng, 3)

        low, hi = -self._reset_noise_scale, self._reset_noise_scale
        q = self.q
        q = q.at[:2].set(self.init_pos)
        q += jax.random.uniform(
            rng1, (self.sys.q_size(),), minval=low, maxval=hi
        )
        qd = hi * jax.random.normal(rng2, (self.sys.qd_size(),))

        pipeline_state = self.pipeline_init(q, qd)
        obs = self._get_obs(pipeline_state)
        return State(pipeline_state, obs)


class VectorGymWrapper:
    """A wrapper that converts batched Brax Env to one that follows Gym VectorEnv API."""

    # Flag that prevents `gym.register` from misinterpreting the `_step` and
    # `_reset` as signs of a deprecated gym Env API.
    _gym_disable_underscore_compat: ClassVar[bool] = True

    def __init__(
        self, env, seed: int = 0, backend: Optional[str] = None
    ):
        self._env = env
        self.seed(seed)
        self.backend = backend
        self._state = None

        def reset(key):
            key1, key2 = jax.random.split(key)
            state = self._env.reset(key2)
            return state, state.obs, key1

        self._reset = jax.jit(reset, backend=self.backend)  # expect: jit-bound-method

    def reset(self):
        self._state, obs, self._key = self._reset(self._key)
        return obs

    def seed(self, seed: int = 0):
        self._key = jax.random.PRNGKey(seed)


env = InitialStateWrapper()
gym_env = VectorGymWrapper(env)
env.set_initial_state(jnp.array([1.0, 2.0]))
print(gym_env.reset()[:2])  # [1. 2.]
env.set_initial_state(jnp.array([5.0, 6.0]))
print(gym_env.reset()[:2])  # still [1. 2.]: the pose from the first set_initial_state
