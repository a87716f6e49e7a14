"""Source: https://github.com/vwxyzjn/cleanrl/blob/004f8a086a892a2a180f4dd332b90d83a968aa7a/cleanrl/dqn_jax.py
Library: flax
Correct: the jitted update takes q_state, a flax TrainState subclass (a struct.PyTreeNode: apply_fn, which holds the original bound q_network.apply, and tx are struct.field(pytree_node=False), hashed into the tree structure; step, params, target_params and opt_state are leaves or containers of arrays, params being a dict with string keys), and five numpy arrays sampled from the replay buffer (float32 observations, int64 actions, float32 rewards and dones), all in traced positions; q_network.apply, replaced by jax.jit of itself (the jitted callable wraps the bound apply of a flax Module whose fields never change; the assignment only shadows the method on the instance), is likewise called with the params dict and the numpy observation the environment returns. The buffer's arrays have fixed shapes and dtypes, so update is traced once (measured: a print in its body runs once over the 19 updates).
Transcribed: Args (the fields the algorithm reads), QNetwork, TrainState, linear_schedule and the main block's set-up, update and training loop; tyro, wandb, the tensorboard writer, the gymnasium environment and cleanrl_utils' ReplayBuffer were cut: the environment's observations are random float32 numpy arrays of CartPole's shape, its actions random ints, and the buffer's sample is replaced by random numpy arrays of the dtypes ReplayBuffer returns (float32, int64 actions); total_timesteps, learning_starts and target_network_frequency were cut to 300, 100 and 50.
"""
import random
from dataclasses import dataclass

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


@dataclass
class Args:
    seed: int = 1
    """seed of the experiment"""
    total_timesteps: int = 300
    """total timesteps of the experiments"""
    learning_rate: float = 2.5e-4
    """the learning rate of the optimizer"""
    num_envs: int = 1
    """the number of parallel game environments"""
    gamma: float = 0.99
    """the discount factor gamma"""
    tau: float = 1.0
    """the target network update rate"""
    target_network_frequency: int = 50
    """the timesteps it takes to update the target network"""
    batch_size: int = 128
    """the batch size of sample from the reply memory"""
    start_e: float = 1
    """the starting epsilon for exploration"""
    end_e: float = 0.05
    """the ending epsilon for exploration"""
    exploration_fraction: float = 0.5
    """the fraction of `total-timesteps` it takes from start-e to go end-e"""
    learning_starts: int = 100
    """timestep to start learning"""
    train_frequency: int = 10
    """the frequency of training"""


# ALGO LOGIC: initialize agent here:
class QNetwork(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(120)(x)
        x = nn.relu(x)
        x = nn.Dense(84)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        return x


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


def linear_schedule(start_e: float, end_e: float, duration: int, t: int):
    slope = (end_e - start_e) / duration
    return max(slope * t + start_e, end_e)


args = Args()
obs_dim, n_actions = 4, 2  # CartPole-v1

# TRY NOT TO MODIFY: seeding
random.seed(args.seed)
np.random.seed(args.seed)
key = jax.random.PRNGKey(args.seed)
key, q_key = jax.random.split(key, 2)

obs = np.random.randn(args.num_envs, obs_dim).astype(np.float32)
q_network = QNetwork(action_dim=n_actions)
q_state = TrainState.create(
    apply_fn=q_network.apply,
    params=q_network.init(q_key, obs),
    target_params=q_network.init(q_key, obs),
    tx=optax.adam(learning_rate=args.learning_rate),
)

q_network.apply = jax.jit(q_network.apply)
# This step is not necessary as init called on same observation and key will always lead to same initializations
q_state = q_state.replace(target_params=optax.incremental_update(q_state.params, q_state.target_params, 1))


@jax.jit
def update(q_state, observations, actions, next_observations, rewards, dones):
    q_next_target = q_network.apply(q_state.target_params, next_observations)  # (batch_size, num_actions)
    q_next_target = jnp.max(q_next_target, axis=-1)  # (batch_size,)
    next_q_value = rewards + (1 - dones) * args.gamma * q_next_target

    def mse_loss(params):
        q_pred = q_network.apply(params, observations)  # (batch_size, num_actions)
        q_pred = q_pred[jnp.arange(q_pred.shape[0]), actions.squeeze()]  # (batch_size,)
        return ((q_pred - next_q_value) ** 2).mean(), q_pred

    (loss_value, q_pred), grads = jax.value_and_grad(mse_loss, has_aux=True)(q_state.params)
    q_state = q_state.apply_gradients(grads=grads)
    return loss_value, q_pred, q_state


for global_step in range(args.total_timesteps):
    # ALGO LOGIC: put action logic here
    epsilon = linear_schedule(args.start_e, args.end_e, args.exploration_fraction * args.total_timesteps, global_step)
    if random.random() < epsilon:
        actions = np.array([np.random.randint(n_actions) for _ in range(args.num_envs)])
    else:
        q_values = q_network.apply(q_state.params, obs)
        actions = q_values.argmax(axis=-1)
        actions = jax.device_get(actions)

    next_obs = np.random.randn(args.num_envs, obs_dim).astype(np.float32)
    obs = next_obs

    # ALGO LOGIC: training.
    if global_step > args.learning_starts:
        if global_step % args.train_frequency == 0:
            # perform a gradient-descent step
            loss, old_val, q_state = update(
                q_state,
                np.random.randn(args.batch_size, obs_dim).astype(np.float32),
                np.random.randint(n_actions, size=(args.batch_size, 1)).astype(np.int64),
                np.random.randn(args.batch_size, obs_dim).astype(np.float32),
                np.random.randn(args.batch_size).astype(np.float32),
                np.random.randint(2, size=args.batch_size).astype(np.float32),
            )

            if global_step % 100 == 0:
                print(f"global_step={global_step}, td_loss={jax.device_get(loss)}")

        # update target network
        if global_step % args.target_network_frequency == 0:
            q_state = q_state.replace(
                target_params=optax.incremental_update(q_state.params, q_state.target_params, args.tau)
            )
