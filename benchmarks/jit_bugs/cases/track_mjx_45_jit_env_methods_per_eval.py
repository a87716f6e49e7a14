"""Source: https://github.com/talmolab/track-mjx/issues/45
Library: plain-jax
Reported: the rendering code of policy_params_fn wraps the environment and jits its reset and step inside the function that runs at every evaluation, so the environment is compiled again at every evaluation, which makes evaluations long and leaves the GPU idle.
Transcribed: setup_training_logging from track_mjx/agent/logging.py at commit c5518f5dd05bf50352a44fda3703da9f7a91db32 (the lines the report points to), up to the rollout loop; model saving, the reward lists and the wandb logging are left out, and the type hints on brax/omegaconf types are dropped. Minimal stand-ins were added for what it uses: a State NamedTuple, a plain environment class with reset and step, RenderRolloutWrapperTracking (a plain wrapper class), make_policy, a cfg dict and three calls standing for three evaluations; step prints when it is traced.
Hard: the bound methods are of a wrapper instance made afresh at each call of the function, so each jax.jit(obj.method) is a new cache entry; the wrapper class is a plain class.
"""
from types import SimpleNamespace
from typing import Any, NamedTuple

import jax
import jax.numpy as jp


class State(NamedTuple):
    obs: Any


class PipelineEnv:
    _steps_for_cur_frame = 2

    def reset(self, rng):
        return State(obs=jp.zeros(3))

    def step(self, state, action):
        print("tracing step")
        return State(obs=state.obs + action)


class RenderRolloutWrapperTracking:
    def __init__(self, env):
        self.env = env

    def reset(self, rng):
        return self.env.reset(rng)

    def step(self, state, action):
        return self.env.step(state, action)


custom_wrappers = SimpleNamespace(RenderRolloutWrapperTracking=RenderRolloutWrapperTracking)


def make_policy(params, deterministic=True):
    def policy(obs, key):
        return obs * params, {}
    return policy


def setup_training_logging(
    num_steps,
    make_policy,
    params,
    rollout_key,
    cfg,
    env,
    wandb,
    model_path,
) -> None:
    ref_trak_config = cfg["reference_config"]

    # Wrap the env in the brax autoreset and episode wrappers
    rollout_env = custom_wrappers.RenderRolloutWrapperTracking(env)

    # define the jit reset/step functions
    jit_reset = jax.jit(rollout_env.reset)  # expect: jit-bound-method
    jit_step = jax.jit(rollout_env.step)  # expect: jit-bound-method

    jit_inference_fn = jax.jit(make_policy(params, deterministic=True))
    rollout_key, reset_rng, act_rng = jax.random.split(rollout_key, 3)

    state = jit_reset(reset_rng)

    rollout = [state]
    for i in range(int(ref_trak_config.clip_length * env._steps_for_cur_frame)):
        _, act_rng = jax.random.split(act_rng)
        obs = state.obs
        ctrl, extras = jit_inference_fn(obs, act_rng)
        state = jit_step(state, ctrl)
        rollout.append(state)


cfg = {"reference_config": SimpleNamespace(clip_length=2)}
env = PipelineEnv()
for num_steps in range(3):
    setup_training_logging(num_steps, make_policy, 0.5, jax.random.PRNGKey(0),
                           cfg, env, None, "/tmp")
