"""Source: https://github.com/YannBerthelot/TargetGym/blob/378e0513dd8876211f2cb804b9302c80b05f13ea/src/target_gym/runners/runners.py
Library: plain-jax
Reported: the fixed runner's `_jitted_step` docstring reports the bug it replaced: `rollout` built `step = jax.jit(env.step_env)` on every call, and "jax.jit hands back a fresh wrapper carrying its own cache, so calling it per rollout recompiles every time: profiling a *warmed* rollout put 0.222 s of its 0.355 s in backend_compile_and_load, called once, and every rollout paid it again"; `EnvSpec.make_env` (src/target_gym/registry.py at the same commit) adds that it used to build a fresh environment per call, so `env.step_env` was a new bound method each time: "forty fresh instances retained 104 MB, about 2.6 MB apiece, and each one also paid its compile again". The fix memoises the jit per environment with `functools.lru_cache` and makes `make_env` return a shared instance. Running it here, a nine-level constant-action sweep traces `step_env` nine times.
Transcribed: `_wants_state`, `_as_tuple`, `_action_bounds`, `rollout`, `constant_policy` and `figure_sweep` (cut to `plot=False`: the matplotlib part is left out) from src/target_gym/runners/runners.py before the fix (the version the code index holds with `step = jax.jit(env.step_env)` in `rollout`), and `EnvSpec` with the old `make_env` (`return self.env_factory()`) from src/target_gym/registry.py, cut to the fields used. The environment is a minimal first-order plant standing in for target_gym's (gymnax-style `reset_env`/`step_env`, `obs_value_index`/`obs_target_index`, `action_space`, a flax struct `EnvParams` with `max_steps_in_episode`); a trace counter in `step_env` and a call of `figure_sweep` were added.
Hard: `rollout` gets a new environment from `spec.make_env()` (a factory call through a frozen dataclass's callable field) and jits its bound method `step_env`; `figure_sweep` calls `rollout` in a list comprehension, so every rollout jits a new bound method of a new object and compiles again, though the object is never changed.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

TRACES = [0]


# minimal stand-in for a target_gym environment
@struct.dataclass
class EnvParams:
    max_steps_in_episode: int = 20
    delta_t: float = 0.1
    gain: float = 2.0


@struct.dataclass
class EnvState:
    x: jax.Array
    target: jax.Array
    time: jax.Array


class Box:
    def __init__(self, low, high, shape):
        self.low, self.high, self.shape = low, high, shape


class FirstOrderSystem:
    obs_value_index = 0
    obs_target_index = 1

    def __init__(self):
        self.obs_shape = (2,)

    def action_space(self, params):
        return Box(-1.0, 1.0, (1,))

    def reset_env(self, key, params):
        state = EnvState(x=jnp.zeros(()), target=jax.random.uniform(key, (), minval=-1.0, maxval=1.0), time=jnp.zeros((), jnp.int32))
        return jnp.stack([state.x, state.target]), state

    def step_env(self, key, state, action, params):
        TRACES[0] += 1
        x = state.x + params.delta_t * (params.gain * action[0] - state.x)
        state = EnvState(x=x, target=state.target, time=state.time + 1)
        reward = -jnp.abs(x - state.target)
        terminated = state.time >= params.max_steps_in_episode
        return jnp.stack([x, state.target]), state, reward, terminated, {}


@dataclass(frozen=True)
class EnvSpec:
    name: str
    group: str
    env_factory: Callable[[], Any]
    params_cls: Callable[..., Any]
    test_params: dict[str, Any] = field(default_factory=dict)

    def make_env(self):
        """Instantiate the environment."""
        return self.env_factory()


REGISTRY = {"first_order": EnvSpec("first_order", "process", FirstOrderSystem, EnvParams)}


def _wants_state(policy: Callable) -> bool:
    try:
        return len(inspect.signature(policy).parameters) >= 2
    except (TypeError, ValueError):  # builtins and C callables have no signature
        return False


def _as_tuple(index) -> tuple[int, ...]:
    """Normalise an observation index that may be a scalar or a tuple."""
    return tuple(index) if isinstance(index, (tuple, list)) else (int(index),)


def _action_bounds(env, params) -> tuple[np.ndarray, np.ndarray]:
    """Low and high action bounds, broadcast to the action shape."""
    space = env.action_space(params)
    shape = space.shape if space.shape else (1,)
    return (
        np.broadcast_to(np.asarray(space.low, dtype=float), shape).copy(),
        np.broadcast_to(np.asarray(space.high, dtype=float), shape).copy(),
    )


def rollout(spec, params, policy: Callable, seed: int = 0):
    """Run one episode, returning tracked values, targets and rewards."""
    env = spec.make_env()
    value_idx = _as_tuple(env.obs_value_index)
    target_idx = _as_tuple(env.obs_target_index)

    key = jax.random.PRNGKey(seed)
    obs, state = env.reset_env(key, params)
    step = jax.jit(env.step_env)  # expect: jit-bound-method

    values, targets, rewards = [], [], []
    for _ in range(int(params.max_steps_in_episode)):
        obs_np = np.asarray(obs)
        values.append(obs_np[list(value_idx)])
        targets.append(obs_np[list(target_idx)])
        action = policy(obs_np, state) if _wants_state(policy) else policy(obs_np)
        obs, state, reward, terminated, _ = step(
            key, state, jnp.atleast_1d(jnp.asarray(action)), params
        )
        rewards.append(float(reward))
        if bool(terminated):
            break
    return np.array(values), np.array(targets), np.array(rewards)


def constant_policy(value, env, params) -> Callable:
    """A policy holding *value*, expressed as a fraction of the action range."""
    low, high = _action_bounds(env, params)
    mid, half = (high + low) / 2.0, (high - low) / 2.0
    action = mid + float(value) * half
    return lambda _obs: jnp.asarray(action)


def figure_sweep(name: str, params=None, resolution: int = 9, plot: bool = True):
    """Constant-action sweep: what the plant does open-loop, across its range."""
    spec = REGISTRY[name]
    env = spec.make_env()
    params = params or spec.params_cls()
    levels = np.linspace(-1.0, 1.0, resolution)

    runs = [rollout(spec, params, constant_policy(u, env, params))[0] for u in levels]
    if not plot:
        return runs
    return runs  # the plotting is left out


runs = figure_sweep("first_order", plot=False)
print("rollouts:", len(runs), "traces of step_env:", TRACES[0])
assert TRACES[0] == len(runs), TRACES
print("BUG: every rollout of the sweep compiled step_env again")
