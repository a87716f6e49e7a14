"""Source: https://github.com/Gonglitian/vibe_rl/blob/1aeefd7a2e272980a4af24e447cb81ac1b63e70e/src/vibe_rl/algorithms/ppo/agent.py
Library: plain-jax
Correct: vibe_rl's PPO is a namespace of static methods jitted with `static_argnames=("config",)`, and the config is `PPOConfig`, a frozen dataclass whose only container field is a tuple (`hidden_sizes: tuple[int, ...] = (64, 64)`), so it hashes and compares by value: equal configs share compiled code and none can change after jit compiled for it. The agent state (`PPOState`) and rollouts (`PPOTransition`) are NamedTuples of arrays and equinox modules, traced as pytrees. `collect_rollout` also holds `env_step_fn` static: the example passes `env.step`, a bound method of an environment built once and never changed, so each access makes an equal bound method (same object, same function) and the cache hits. `config.make_optimizer()` builds an optax chain inside the jitted `update`, where it runs once per trace, not per call. Each jitted method compiles once for the loop below.
Transcribed: `PPOConfig` (algorithms/ppo/config.py), the three networks (algorithms/ppo/network.py), `PPOState` and `ActorCriticParams` (algorithms/ppo/types.py), `PPOTransition` (dataprotocol/transition.py), `compute_gae`, `PPOMetrics` and `PPO` (algorithms/ppo/agent.py), `EnvState`, `EnvParams` and `Environment` (env/base.py), `CartPole` (env/cart_pole.py) and `AutoResetWrapper` (env/wrappers.py) at 1aeefd7a; the environments' `observation_space`/`action_space` methods and the `spaces` module they need are left out; `chex` (not installed) is replaced by a stand-in holding its type aliases. The driver is examples/train_ppo_cartpole.py's `main` with 3 updates and no evaluation episodes.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class chex:  # stand-in for the chex type aliases vibe_rl annotates with
    Array = jax.Array
    ArrayTree = Any
    PRNGKey = jax.Array


Params = Any  # network parameter pytree
OptState = Any  # optax optimizer state pytree


@dataclass(frozen=True)
class PPOConfig:
    """All PPO hyperparameters in one place.

    Frozen dataclass — safe to pass into jitted functions as a static
    argument (via ``functools.partial`` or ``jax.jit(..., static_argnums=...)``).
    """

    # Network
    hidden_sizes: tuple[int, ...] = (64, 64)

    # Optimization
    lr: float = 2.5e-4
    max_grad_norm: float = 0.5
    gamma: float = 0.99
    gae_lambda: float = 0.95

    # PPO clipping
    clip_eps: float = 0.2
    vf_coef: float = 0.5
    ent_coef: float = 0.01

    # Rollout
    n_steps: int = 128
    n_minibatches: int = 4
    n_epochs: int = 4

    # Vectorized environments
    num_envs: int = 1

    # Architecture
    shared_backbone: bool = False

    def make_optimizer(self) -> optax.GradientTransformation:
        """Build the optax optimizer chain for this config.

        Returns a single ``GradientTransformation`` that should be
        constructed **once** and reused for every ``update()`` call so
        that stateful transforms (e.g. learning-rate schedules) work
        correctly.
        """
        return optax.chain(
            optax.clip_by_global_norm(self.max_grad_norm),
            optax.adam(self.lr, eps=1e-5),
        )


class ActorCategorical(eqx.Module):
    """MLP actor for discrete action spaces: obs -> action logits."""

    layers: list

    def __init__(
        self,
        obs_dim: int,
        n_actions: int,
        hidden_sizes: tuple[int, ...] = (64, 64),
        *,
        key: jax.Array,
    ) -> None:
        dims = [obs_dim, *hidden_sizes, n_actions]
        keys = jax.random.split(key, len(dims) - 1)
        self.layers = [
            eqx.nn.Linear(d_in, d_out, key=k)
            for d_in, d_out, k in zip(dims[:-1], dims[1:], keys)
        ]

    def __call__(self, x: jax.Array) -> jax.Array:
        """Return action logits (un-normalised log-probabilities)."""
        for layer in self.layers[:-1]:
            x = jax.nn.tanh(layer(x))
        return self.layers[-1](x)


class Critic(eqx.Module):
    """MLP critic: obs -> scalar state-value V(s)."""

    layers: list

    def __init__(
        self,
        obs_dim: int,
        hidden_sizes: tuple[int, ...] = (64, 64),
        *,
        key: jax.Array,
    ) -> None:
        dims = [obs_dim, *hidden_sizes, 1]
        keys = jax.random.split(key, len(dims) - 1)
        self.layers = [
            eqx.nn.Linear(d_in, d_out, key=k)
            for d_in, d_out, k in zip(dims[:-1], dims[1:], keys)
        ]

    def __call__(self, x: jax.Array) -> jax.Array:
        """Return scalar value estimate."""
        for layer in self.layers[:-1]:
            x = jax.nn.tanh(layer(x))
        return self.layers[-1](x).squeeze(-1)


class ActorCriticShared(eqx.Module):
    """Shared-backbone actor-critic: obs -> (logits, value).

    A single MLP backbone feeds into two separate linear heads.
    """

    backbone: list
    actor_head: eqx.nn.Linear
    critic_head: eqx.nn.Linear

    def __init__(
        self,
        obs_dim: int,
        n_actions: int,
        hidden_sizes: tuple[int, ...] = (64, 64),
        *,
        key: jax.Array,
    ) -> None:
        k_backbone, k_actor, k_critic = jax.random.split(key, 3)

        dims = [obs_dim, *hidden_sizes]
        keys = jax.random.split(k_backbone, len(dims) - 1)
        self.backbone = [
            eqx.nn.Linear(d_in, d_out, key=k)
            for d_in, d_out, k in zip(dims[:-1], dims[1:], keys)
        ]
        self.actor_head = eqx.nn.Linear(hidden_sizes[-1], n_actions, key=k_actor)
        self.critic_head = eqx.nn.Linear(hidden_sizes[-1], 1, key=k_critic)

    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Return ``(action_logits, value)``."""
        for layer in self.backbone:
            x = jax.nn.tanh(layer(x))
        logits = self.actor_head(x)
        value = self.critic_head(x).squeeze(-1)
        return logits, value


class PPOState(NamedTuple):
    """PPO agent state."""

    params: Params
    opt_state: OptState
    step: chex.Array
    rng: chex.PRNGKey


class ActorCriticParams(NamedTuple):
    """Container for separate actor and critic parameters."""

    actor: Params
    critic: Params


class PPOTransition(NamedTuple):
    """Extended transition for on-policy algorithms (PPO)."""

    obs: jax.Array
    action: jax.Array
    reward: jax.Array
    next_obs: jax.Array
    done: jax.Array
    log_prob: jax.Array
    value: jax.Array


class PPOMetrics(NamedTuple):
    total_loss: chex.Array
    actor_loss: chex.Array
    critic_loss: chex.Array
    entropy: chex.Array
    approx_kl: chex.Array


# ---------------------------------------------------------------------------
# GAE (Generalized Advantage Estimation)
# ---------------------------------------------------------------------------

def compute_gae(
    rewards: chex.Array,
    values: chex.Array,
    dones: chex.Array,
    last_value: chex.Array,
    gamma: float,
    gae_lambda: float,
) -> tuple[chex.Array, chex.Array]:
    """Compute GAE advantages and value targets.

    Args:
        rewards: shape ``(T,)`` or ``(T, N)`` for vectorized envs.
        values: shape ``(T,)`` or ``(T, N)``.
        dones: shape ``(T,)`` or ``(T, N)``.
        last_value: shape ``()`` or ``(N,)`` — bootstrap value for final step.
        gamma: Discount factor.
        gae_lambda: GAE lambda.

    Returns:
        ``(advantages, returns)`` each with same shape as ``rewards``.
    """

    def _scan_fn(carry, transition):
        gae, next_value = carry
        reward, value, done = transition
        delta = reward + gamma * next_value * (1.0 - done) - value
        gae = delta + gamma * gae_lambda * (1.0 - done) * gae
        return (gae, value), gae

    init_carry = (jnp.zeros_like(last_value), last_value)
    # Scan in reverse time order
    _, advantages = jax.lax.scan(
        _scan_fn,
        init_carry,
        (rewards, values, dones),
        reverse=True,
    )
    returns = advantages + values
    return advantages, returns


# ---------------------------------------------------------------------------
# PPO agent namespace
# ---------------------------------------------------------------------------

class PPO:
    """Namespace for PPO pure functions.

    Not instantiated — all methods are static.
    """

    @staticmethod
    def init(
        rng: chex.PRNGKey,
        obs_shape: tuple[int, ...],
        n_actions: int,
        config: PPOConfig,
    ) -> PPOState:
        """Create initial PPO state."""
        import math

        obs_dim = math.prod(obs_shape)
        k1, k2, k3 = jax.random.split(rng, 3)

        if config.shared_backbone:
            params = ActorCriticShared(
                obs_dim, n_actions, config.hidden_sizes, key=k1,
            )
        else:
            actor = ActorCategorical(
                obs_dim, n_actions, config.hidden_sizes, key=k1,
            )
            critic = Critic(obs_dim, config.hidden_sizes, key=k2)
            params = ActorCriticParams(actor=actor, critic=critic)

        optimizer = config.make_optimizer()
        opt_state = optimizer.init(eqx.filter(params, eqx.is_array))

        return PPOState(
            params=params,
            opt_state=opt_state,
            step=jnp.zeros((), dtype=jnp.int32),
            rng=k3,
        )

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def act(
        state: PPOState,
        obs: chex.Array,
        *,
        config: PPOConfig,
    ) -> tuple[chex.Array, chex.Array, chex.Array, PPOState]:
        """Select action, returning ``(action, log_prob, value, new_state)``.

        Args:
            state: Current PPO state.
            obs: Single observation, shape ``(*obs_shape,)``.
            config: PPO hyperparameters (static).

        Returns:
            ``(action, log_prob, value, new_state)`` tuple.
        """
        rng, key = jax.random.split(state.rng)

        if config.shared_backbone:
            logits, value = state.params(obs)
        else:
            logits = state.params.actor(obs)
            value = state.params.critic(obs)

        # Categorical sampling
        action = jax.random.categorical(key, logits)
        log_prob = jax.nn.log_softmax(logits)[action]

        new_state = state._replace(rng=rng)
        return action, log_prob, value, new_state

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def act_batch(
        state: PPOState,
        obs: chex.Array,
        *,
        config: PPOConfig,
    ) -> tuple[chex.Array, chex.Array, chex.Array, PPOState]:
        """Vectorized action selection for a batch of observations.

        Args:
            state: Current PPO state.
            obs: Batch of observations, shape ``(N, *obs_shape)``.
            config: PPO hyperparameters (static).

        Returns:
            ``(actions, log_probs, values, new_state)`` each with leading dim N.
        """
        rng, key = jax.random.split(state.rng)
        n_envs = obs.shape[0]
        keys = jax.random.split(key, n_envs)

        if config.shared_backbone:
            logits, values = jax.vmap(state.params)(obs)
        else:
            logits = jax.vmap(state.params.actor)(obs)
            values = jax.vmap(state.params.critic)(obs)

        actions = jax.vmap(jax.random.categorical)(keys, logits)
        log_softmax = jax.nn.log_softmax(logits)
        log_probs = log_softmax[jnp.arange(n_envs), actions]

        new_state = state._replace(rng=rng)
        return actions, log_probs, values, new_state

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def evaluate_actions(
        params: chex.ArrayTree,
        obs: chex.Array,
        actions: chex.Array,
        *,
        config: PPOConfig,
    ) -> tuple[chex.Array, chex.Array, chex.Array]:
        """Re-evaluate log_prob, value, entropy for a batch of (obs, action).

        Used inside the update step to compute losses with current params.

        Returns:
            ``(log_probs, values, entropy)`` each shape ``(B,)``.
        """
        if config.shared_backbone:
            logits, values = jax.vmap(params)(obs)
        else:
            logits = jax.vmap(params.actor)(obs)
            values = jax.vmap(params.critic)(obs)

        log_softmax = jax.nn.log_softmax(logits)
        log_probs = log_softmax[jnp.arange(obs.shape[0]), actions.astype(jnp.int32)]

        # Entropy of categorical distribution
        probs = jax.nn.softmax(logits)
        entropy = -jnp.sum(probs * log_softmax, axis=-1)

        return log_probs, values, entropy

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def get_value(
        state: PPOState,
        obs: chex.Array,
        *,
        config: PPOConfig,
    ) -> chex.Array:
        """Compute value estimate for a single observation."""
        if config.shared_backbone:
            _, value = state.params(obs)
        else:
            value = state.params.critic(obs)
        return value

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def get_value_batch(
        state: PPOState,
        obs: chex.Array,
        *,
        config: PPOConfig,
    ) -> chex.Array:
        """Compute value estimates for a batch of observations."""
        if config.shared_backbone:
            _, values = jax.vmap(state.params)(obs)
        else:
            values = jax.vmap(state.params.critic)(obs)
        return values

    @staticmethod
    @partial(jax.jit, static_argnames=("config",))
    def update(
        state: PPOState,
        trajectories: PPOTransition,
        last_value: chex.Array,
        *,
        config: PPOConfig,
    ) -> tuple[PPOState, PPOMetrics]:
        """PPO update: compute GAE, then run multiple epochs of mini-batch SGD.

        Args:
            state: Current PPO state.
            trajectories: Collected rollout data, each field shape ``(T, ...)``.
                ``T = config.n_steps``. For vectorized envs: ``(T, N, ...)``.
            last_value: Bootstrap value for the final observation.
            config: PPO hyperparameters (static).

        Returns:
            ``(new_state, metrics)`` tuple.
        """
        # Compute advantages with GAE
        advantages, returns = compute_gae(
            rewards=trajectories.reward,
            values=trajectories.value,
            dones=trajectories.done,
            last_value=last_value,
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
        )

        # Flatten time (and env) dimensions for mini-batch SGD
        # trajectories fields: (T, ...) or (T, N, ...)
        batch_size = advantages.size
        flat_traj = jax.tree.map(lambda x: x.reshape(batch_size, *x.shape[len(advantages.shape):]), trajectories)
        flat_advantages = advantages.reshape(batch_size)
        flat_returns = returns.reshape(batch_size)

        optimizer = config.make_optimizer()

        def _epoch(carry, _):
            params, opt_state, rng = carry
            rng, shuffle_key = jax.random.split(rng)

            # Shuffle and split into minibatches
            perm = jax.random.permutation(shuffle_key, batch_size)
            mb_size = batch_size // config.n_minibatches

            def _minibatch_step(carry, start_idx):
                params, opt_state = carry
                mb_idx = jax.lax.dynamic_slice(perm, (start_idx,), (mb_size,))

                mb_obs = flat_traj.obs[mb_idx]
                mb_actions = flat_traj.action[mb_idx]
                mb_old_log_probs = flat_traj.log_prob[mb_idx]
                mb_old_values = flat_traj.value[mb_idx]
                mb_advantages = flat_advantages[mb_idx]
                mb_returns = flat_returns[mb_idx]

                # Normalize advantages per minibatch
                mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

                def loss_fn(params):
                    log_probs, values, entropy = PPO.evaluate_actions(
                        params, mb_obs, mb_actions, config=config,
                    )

                    # PPO clipped surrogate objective
                    ratio = jnp.exp(log_probs - mb_old_log_probs)
                    surr1 = ratio * mb_advantages
                    surr2 = jnp.clip(ratio, 1.0 - config.clip_eps, 1.0 + config.clip_eps) * mb_advantages
                    actor_loss = -jnp.minimum(surr1, surr2).mean()

                    # Clipped value loss
                    value_pred_clipped = mb_old_values + jnp.clip(
                        values - mb_old_values, -config.clip_eps, config.clip_eps,
                    )
                    vf_loss1 = (values - mb_returns) ** 2
                    vf_loss2 = (value_pred_clipped - mb_returns) ** 2
                    critic_loss = 0.5 * jnp.maximum(vf_loss1, vf_loss2).mean()

                    entropy_mean = entropy.mean()

                    total_loss = actor_loss + config.vf_coef * critic_loss - config.ent_coef * entropy_mean

                    approx_kl = (mb_old_log_probs - log_probs).mean()

                    return total_loss, (actor_loss, critic_loss, entropy_mean, approx_kl)

                (total_loss, (actor_loss, critic_loss, entropy_mean, approx_kl)), grads = (
                    eqx.filter_value_and_grad(loss_fn, has_aux=True)(params)
                )

                updates, new_opt_state = optimizer.update(
                    grads, opt_state, eqx.filter(params, eqx.is_array),
                )
                new_params = eqx.apply_updates(params, updates)

                metrics = PPOMetrics(
                    total_loss=total_loss,
                    actor_loss=actor_loss,
                    critic_loss=critic_loss,
                    entropy=entropy_mean,
                    approx_kl=approx_kl,
                )
                return (new_params, new_opt_state), metrics

            start_indices = jnp.arange(config.n_minibatches) * mb_size
            (params, opt_state), mb_metrics = jax.lax.scan(
                _minibatch_step, (params, opt_state), start_indices,
            )

            return (params, opt_state, rng), mb_metrics

        (new_params, new_opt_state, new_rng), epoch_metrics = jax.lax.scan(
            _epoch, (state.params, state.opt_state, state.rng), None, config.n_epochs,
        )

        # Average metrics across all epochs and minibatches
        avg_metrics = jax.tree.map(lambda x: x.mean(), epoch_metrics)

        new_state = PPOState(
            params=new_params,
            opt_state=new_opt_state,
            step=state.step + 1,
            rng=new_rng,
        )

        return new_state, avg_metrics

    @staticmethod
    @partial(jax.jit, static_argnames=("env_step_fn", "config"))
    def collect_rollout(
        state: PPOState,
        env_obs: chex.Array,
        env_state: chex.ArrayTree,
        env_step_fn: callable,
        env_params: chex.ArrayTree,
        *,
        config: PPOConfig,
    ) -> tuple[PPOState, PPOTransition, chex.Array, chex.ArrayTree, chex.Array]:
        """Collect a fixed-length rollout using ``lax.scan``.

        This performs ``config.n_steps`` environment transitions, storing
        each as a ``PPOTransition``. After collection, the buffer is used
        for a single PPO update and then discarded.

        Args:
            state: Current PPO agent state.
            env_obs: Current observation, shape ``(*obs_shape,)``.
            env_state: Current environment state (PyTree).
            env_step_fn: ``step(key, state, action, params) -> (obs, state, reward, done, info)``
            env_params: Environment parameters.
            config: PPO hyperparameters (static).

        Returns:
            ``(new_agent_state, trajectories, final_obs, final_env_state, last_value)``
        """

        def _step(carry, _):
            agent_state, obs, e_state = carry
            action, log_prob, value, agent_state = PPO.act(
                agent_state, obs, config=config,
            )
            rng, step_key = jax.random.split(agent_state.rng)
            agent_state = agent_state._replace(rng=rng)

            next_obs, new_e_state, reward, done, _info = env_step_fn(
                step_key, e_state, action, env_params,
            )

            transition = PPOTransition(
                obs=obs,
                action=action,
                reward=reward,
                next_obs=next_obs,
                done=done,
                log_prob=log_prob,
                value=value,
            )
            return (agent_state, next_obs, new_e_state), transition

        (state, final_obs, final_env_state), trajectories = jax.lax.scan(
            _step, (state, env_obs, env_state), None, config.n_steps,
        )

        last_value = PPO.get_value(state, final_obs, config=config)

        return state, trajectories, final_obs, final_env_state, last_value

    @staticmethod
    @partial(jax.jit, static_argnames=("env_step_fn", "config"))
    def collect_rollout_batch(
        state: PPOState,
        env_obs: chex.Array,
        env_states: chex.ArrayTree,
        env_step_fn: callable,
        env_params: chex.ArrayTree,
        *,
        config: PPOConfig,
    ) -> tuple[PPOState, PPOTransition, chex.Array, chex.ArrayTree, chex.Array]:
        """Collect rollouts from N parallel environments using vmap.

        Args:
            state: Current PPO agent state (shared across envs).
            env_obs: Observations shape ``(N, *obs_shape)``.
            env_states: Batched env states.
            env_step_fn: Single-env step function.
            env_params: Env parameters (shared, not batched).
            config: PPO hyperparameters (static).

        Returns:
            ``(new_state, trajectories, final_obs, final_env_states, last_values)``
            where trajectories fields have shape ``(T, N, ...)``.
        """
        batch_step = jax.vmap(env_step_fn, in_axes=(0, 0, 0, None))

        def _step(carry, _):
            agent_state, obs, e_states = carry
            actions, log_probs, values, agent_state = PPO.act_batch(
                agent_state, obs, config=config,
            )
            rng, step_key = jax.random.split(agent_state.rng)
            agent_state = agent_state._replace(rng=rng)

            n_envs = obs.shape[0]
            step_keys = jax.random.split(step_key, n_envs)

            next_obs, new_e_states, rewards, dones, _infos = batch_step(
                step_keys, e_states, actions, env_params,
            )

            transition = PPOTransition(
                obs=obs,
                action=actions,
                reward=rewards,
                next_obs=next_obs,
                done=dones,
                log_prob=log_probs,
                value=values,
            )
            return (agent_state, next_obs, new_e_states), transition

        (state, final_obs, final_env_states), trajectories = jax.lax.scan(
            _step, (state, env_obs, env_states), None, config.n_steps,
        )

        last_values = PPO.get_value_batch(state, final_obs, config=config)

        return state, trajectories, final_obs, final_env_states, last_values


class EnvState(eqx.Module):
    """Base class for environment states.

    All environment states must be registered JAX PyTrees (eqx.Module
    achieves this automatically). States must be immutable — step()
    returns a *new* state rather than mutating in place.
    """

    time: jax.Array  # current timestep within the episode


class EnvParams(eqx.Module):
    """Base class for environment parameters.

    Parameters are separated from state so they can be:
    - Shared across vmapped environments (in_axes=None)
    - Vmapped themselves for meta-learning / domain randomisation
    """


class Environment(ABC):
    """Abstract base for pure-JAX environments.

    Subclasses implement:
    - ``reset(key, params) -> (obs, state)``
    - ``step(key, state, action, params) -> (obs, state, reward, done, info)``
    - ``default_params() -> EnvParams``
    - ``observation_space(params) -> Space``
    - ``action_space(params) -> Space``
    """

    @abstractmethod
    def reset(
        self,
        key: jax.Array,
        params: EnvParams,
    ) -> tuple[jax.Array, EnvState]:
        """Reset the environment and return ``(obs, state)``."""
        ...

    @abstractmethod
    def step(
        self,
        key: jax.Array,
        state: EnvState,
        action: jax.Array,
        params: EnvParams,
    ) -> tuple[jax.Array, EnvState, jax.Array, jax.Array, dict[str, Any]]:
        """Advance one timestep.

        Returns:
            ``(obs, state, reward, done, info)`` where *done* merges
            terminated and truncated into a single flag.
        """
        ...

    @abstractmethod
    def default_params(self) -> EnvParams:
        """Return the default environment parameters."""
        ...

    @property
    def name(self) -> str:
        return self.__class__.__name__


class CartPoleState(EnvState):
    x: jax.Array
    x_dot: jax.Array
    theta: jax.Array
    theta_dot: jax.Array


class CartPoleParams(EnvParams):
    gravity: float = eqx.field(static=True, default=9.8)
    masscart: float = eqx.field(static=True, default=1.0)
    masspole: float = eqx.field(static=True, default=0.1)
    length: float = eqx.field(static=True, default=0.5)
    force_mag: float = eqx.field(static=True, default=10.0)
    tau: float = eqx.field(static=True, default=0.02)
    theta_threshold: float = eqx.field(static=True, default=0.2094395)  # 12 degrees
    x_threshold: float = eqx.field(static=True, default=2.4)
    max_steps: int = eqx.field(static=True, default=500)


class CartPole(Environment):
    """Classic CartPole balancing task in pure JAX.

    Observation: ``[x, x_dot, theta, theta_dot]``
    Actions: ``0`` (push left) or ``1`` (push right)
    Reward: ``+1`` per timestep the pole stays upright.

    Episode terminates when the pole angle exceeds ±12° or the cart
    leaves ±2.4 from center, or after ``max_steps``.
    """

    def default_params(self) -> CartPoleParams:
        return CartPoleParams()

    def reset(
        self,
        key: jax.Array,
        params: CartPoleParams,
    ) -> tuple[jax.Array, CartPoleState]:
        init = jax.random.uniform(key, shape=(4,), minval=-0.05, maxval=0.05)
        state = CartPoleState(
            x=init[0],
            x_dot=init[1],
            theta=init[2],
            theta_dot=init[3],
            time=jnp.int32(0),
        )
        return self._get_obs(state), state

    def step(
        self,
        key: jax.Array,
        state: CartPoleState,
        action: jax.Array,
        params: CartPoleParams,
    ) -> tuple[jax.Array, CartPoleState, jax.Array, jax.Array, dict[str, Any]]:
        force = jnp.where(action == 1, params.force_mag, -params.force_mag)

        total_mass = params.masscart + params.masspole
        polemass_length = params.masspole * params.length

        cos_th = jnp.cos(state.theta)
        sin_th = jnp.sin(state.theta)

        temp = (force + polemass_length * state.theta_dot ** 2 * sin_th) / total_mass
        theta_acc = (params.gravity * sin_th - cos_th * temp) / (
            params.length * (4.0 / 3.0 - params.masspole * cos_th ** 2 / total_mass)
        )
        x_acc = temp - polemass_length * theta_acc * cos_th / total_mass

        # Euler integration
        x = state.x + params.tau * state.x_dot
        x_dot = state.x_dot + params.tau * x_acc
        theta = state.theta + params.tau * state.theta_dot
        theta_dot = state.theta_dot + params.tau * theta_acc

        time = state.time + 1
        new_state = CartPoleState(
            x=x, x_dot=x_dot, theta=theta, theta_dot=theta_dot, time=time,
        )

        terminated = (
            (x < -params.x_threshold)
            | (x > params.x_threshold)
            | (theta < -params.theta_threshold)
            | (theta > params.theta_threshold)
        )
        truncated = time >= params.max_steps
        done = terminated | truncated
        reward = jnp.float32(1.0)

        return self._get_obs(new_state), new_state, reward, done, {"terminated": terminated, "truncated": truncated}

    @staticmethod
    def _get_obs(state: CartPoleState) -> jax.Array:
        return jnp.array([state.x, state.x_dot, state.theta, state.theta_dot], dtype=jnp.float32)


class AutoResetState(EnvState):
    """Wraps an inner state and tracks the underlying environment state."""

    inner: EnvState


class AutoResetWrapper(Environment):
    """Automatically resets the environment when ``done`` is True.

    On a done transition the returned ``obs`` and ``state`` already
    correspond to the fresh episode (the terminal observation is
    available via ``info["terminal_obs"]``).  This is the standard
    pattern for ``lax.scan``-based training loops.
    """

    env: Environment

    def __init__(self, env: Environment) -> None:
        self.env = env

    def default_params(self) -> EnvParams:
        return self.env.default_params()

    def reset(self, key: jax.Array, params: EnvParams) -> tuple[jax.Array, AutoResetState]:
        obs, inner_state = self.env.reset(key, params)
        return obs, AutoResetState(inner=inner_state, time=inner_state.time)

    def step(
        self,
        key: jax.Array,
        state: AutoResetState,
        action: jax.Array,
        params: EnvParams,
    ) -> tuple[jax.Array, AutoResetState, jax.Array, jax.Array, dict[str, Any]]:
        key_step, key_reset = jax.random.split(key)

        obs, inner_state, reward, done, info = self.env.step(
            key_step, state.inner, action, params,
        )

        # Prepare a fresh state for when done==True
        reset_obs, reset_state = self.env.reset(key_reset, params)

        # Store terminal observation before overwriting
        info["terminal_obs"] = obs

        # Select between continuing and resetting
        new_inner = jax.tree.map(
            lambda r, c: jnp.where(done, r, c), reset_state, inner_state,
        )
        new_obs = jnp.where(done, reset_obs, obs)

        return new_obs, AutoResetState(inner=new_inner, time=new_inner.time), reward, done, info


def main() -> None:
    seed = 42
    total_updates = 3

    config = PPOConfig(
        hidden_sizes=(64, 64),
        lr=2.5e-4,
        gamma=0.99,
        gae_lambda=0.95,
        clip_eps=0.2,
        vf_coef=0.5,
        ent_coef=0.01,
        n_steps=128,
        n_minibatches=4,
        n_epochs=4,
    )

    env = CartPole()
    env = AutoResetWrapper(env)
    env_params = env.default_params()

    rng = jax.random.PRNGKey(seed)
    rng, env_key, agent_key = jax.random.split(rng, 3)

    obs, env_state = env.reset(env_key, env_params)
    state = PPO.init(agent_key, obs_shape=(4,), n_actions=2, config=config)

    for update in range(total_updates):
        # Collect rollout (jax.lax.scan internally)
        state, trajectories, obs, env_state, last_value = PPO.collect_rollout(
            state, obs, env_state, env.step, env_params, config=config,
        )

        # PPO update (multiple epochs of mini-batch SGD)
        state, metrics = PPO.update(
            state, trajectories, last_value, config=config,
        )
        print(f"Update {update + 1:4d} | loss={float(metrics.total_loss):.4f}")

    print("Training complete.")


if __name__ == "__main__":
    main()
