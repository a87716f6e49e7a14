"""Source: https://github.com/araffin/sbx/blob/9bdc9c13c67dc086cbff5d8e533813f687856d8a/sbx/sac/sac.py
Library: plain-jax
Correct: `SAC._train` is a `@classmethod` over `@partial(jax.jit, static_argnames=["cls", "gradient_steps", "policy_delay", "policy_delay_offset"])`: what jit sees in the static position `cls` is the class object `SAC`, one object for the life of the program (a class hashes by identity, and rightly so: there is never an equal copy), and the mutable agent `self` is never passed to jit; the other static values are ints (`policy_delay_offset` takes at most `policy_delay` values, so the compiles are bounded). The helpers it calls through `cls` are `@staticmethod`s over `jax.jit`. A checker that treats any class-typed static value as identity-hashed and suspect would flag the decorator.
Transcribed: the decorators and signatures of `SAC._train` and `SAC.soft_update`, the `fori_loop` skeleton of `_train` (dynamic slicing of the batch, `cls.soft_update`, `lax.cond` on `(policy_delay_offset + i) % policy_delay == 0`) and the `self._train(...)` call in `SAC.train`, from sbx/sac/sac.py; the network states are reduced to a dict of parameter arrays, `update_critic` and `update_actor_and_temperature` to one-line stand-ins, `ReplayBufferSamplesNp` to two fields, `optax.incremental_update` to its formula, and the logging is left out; a trace counter and a driver calling `train` six times were added.
"""
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

traces = 0


class ReplayBufferSamplesNp(NamedTuple):
    observations: jax.Array
    rewards: jax.Array


class SAC:
    def __init__(self, tau: float = 0.005, policy_delay: int = 2):
        self.tau = tau
        self.target_entropy = jnp.array(-1.0)
        self.policy_delay = policy_delay
        self._n_updates = 0
        self.qf_state = {"params": jnp.zeros(3), "target_params": jnp.zeros(3)}
        self.actor_state = jnp.zeros(3)
        self.key = jax.random.PRNGKey(0)

    def train(self, gradient_steps: int, data: ReplayBufferSamplesNp) -> None:
        (
            self.qf_state,
            self.actor_state,
            self.key,
            qf_loss_value,
        ) = self._train(
            self.tau,
            self.target_entropy,
            gradient_steps,
            data,
            self.policy_delay,
            (self._n_updates + 1) % self.policy_delay,
            self.qf_state,
            self.actor_state,
            self.key,
        )
        self._n_updates += gradient_steps

    @staticmethod
    @jax.jit
    def update_critic(qf_state, observations, rewards):
        loss = jnp.mean((observations @ qf_state["params"] - rewards) ** 2)
        grad = jax.grad(lambda p: jnp.mean((observations @ p - rewards) ** 2))(qf_state["params"])
        return {**qf_state, "params": qf_state["params"] - 0.1 * grad}, loss

    @staticmethod
    @jax.jit
    def soft_update(tau: float, qf_state: dict[str, Any]) -> dict[str, Any]:
        target = tau * qf_state["params"] + (1.0 - tau) * qf_state["target_params"]
        return {**qf_state, "target_params": target}

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps", "policy_delay", "policy_delay_offset"])
    def _train(
        cls,
        tau: float,
        target_entropy: jax.Array,
        gradient_steps: int,
        data: ReplayBufferSamplesNp,
        policy_delay: int,
        policy_delay_offset: int,
        qf_state: dict[str, Any],
        actor_state: jax.Array,
        key: jax.Array,
    ):
        global traces
        traces += 1
        assert data.observations.shape[0] % gradient_steps == 0
        batch_size = data.observations.shape[0] // gradient_steps

        carry = {"actor_state": actor_state, "qf_state": qf_state, "key": key, "qf_loss": jnp.array(0.0)}

        def one_update(i: int, carry: dict[str, Any]) -> dict[str, Any]:
            batch_obs = jax.lax.dynamic_slice_in_dim(data.observations, i * batch_size, batch_size)
            batch_rewards = jax.lax.dynamic_slice_in_dim(data.rewards, i * batch_size, batch_size)
            qf_state, qf_loss_value = cls.update_critic(carry["qf_state"], batch_obs, batch_rewards)
            qf_state = cls.soft_update(tau, qf_state)
            actor_state = jax.lax.cond(
                (policy_delay_offset + i) % policy_delay == 0,
                lambda a: a + target_entropy * 0.01,
                lambda a: a,
                carry["actor_state"],
            )
            return {"actor_state": actor_state, "qf_state": qf_state, "key": carry["key"], "qf_loss": qf_loss_value}

        update_carry = jax.lax.fori_loop(0, gradient_steps, one_update, carry)
        return update_carry["qf_state"], update_carry["actor_state"], update_carry["key"], update_carry["qf_loss"]


agent = SAC()
data = ReplayBufferSamplesNp(jnp.ones((8, 3)), jnp.ones(8))
for _ in range(6):
    agent.train(gradient_steps=1, data=data)
print(agent.qf_state["params"], agent._n_updates)
print("traces:", traces)  # 2: one per value of policy_delay_offset (0 and 1), for the one class object SAC
