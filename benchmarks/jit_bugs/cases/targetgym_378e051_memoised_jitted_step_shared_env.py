"""Source: https://github.com/YannBerthelot/TargetGym/blob/378e0513dd8876211f2cb804b9302c80b05f13ea/src/target_gym/registry.py
Library: plain-jax
Correct: the fixed runner jits `env.step_env`, a bound method, through `@functools.lru_cache(maxsize=None) def _jitted_step(env): return jax.jit(env.step_env)`, and `EnvSpec.make_env` returns one shared instance per spec ("The environment for this spec, built once and shared ... Re-wrapping the *same* instance in ``jax.jit`` repeatedly costs nothing, so the instance is what matters. Sharing is safe because these environments carry no per-episode state: every field is configuration"). Every rollout of a sweep gets the same environment and the same memoised jitted step, so it compiles once, and the environment is never changed after construction, so no compiled step goes stale. A rule that flags every `jax.jit(obj.method)` inside a function called in a loop, or every jit of a bound method, would report the memoised line. Running it here, a nine-level sweep traces `step_env` once.
Transcribed: `_jitted_step`, `rollout` (cut to the loop of the earlier version: the `return_trips` count and the `state.time` loop condition are left out), `constant_policy` and `figure_sweep` (with `plot=False`) from src/target_gym/runners/runners.py at the commit, and `EnvSpec` with `make_env` and the module-level `_ENV_CACHE` from src/target_gym/registry.py, cut to the fields used. The environment is the same minimal first-order plant as in the bug case `targetgym_378e051_rollout_jits_step_of_fresh_env.py`; a trace counter and a call of `figure_sweep` were added.
"""
from __future__ import annotations

import functools
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


# Keyed by spec name: EnvSpec is frozen, so the cache lives beside it.
_ENV_CACHE: dict[str, Any] = {}


@dataclass(frozen=True)
class EnvSpec:
    name: str
    group: str
    env_factory: Callable[[], Any]
    params_cls: Callable[..., Any]
    test_params: dict[str, Any] = field(default_factory=dict)

    def make_env(self):
        """The environment for this spec, built once and shared."""
        cached = _ENV_CACHE.get(self.name)
        if cached is None:
            cached = _ENV_CACHE[self.name] = self.env_factory()
        return cached


REGISTRY = {"first_order": EnvSpec("first_order", "process", FirstOrderSystem, EnvParams)}


@functools.lru_cache(maxsize=None)
def _jitted_step(env):
    """One jitted ``step_env`` per environment, reused across rollouts."""
    return jax.jit(env.step_env)


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
    step = _jitted_step(env)

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
assert TRACES[0] == 1, TRACES
