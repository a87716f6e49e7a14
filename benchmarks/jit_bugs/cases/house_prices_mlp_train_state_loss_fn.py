"""Source: https://github.com/Arnaud15/house_prices_mlp/blob/091dc937ac6a33ddc9e1456b39ab7426677e93cd/house_prices_mlp/train_state.py
Library: flax
Correct: a flax TrainState subclass holds the loss function in a struct.field(pytree_node=False) typed Callable: the value is jax.jit of a module-level function, built once per training run, hashable by identity and never changed, so the jitted train step compiles once per run.
Transcribed: train_state.py, with squared_loss and mse_loss from train_utils.py and train_step and the state set-up of train() from training_loop.py (commit 091dc937), reduced; the repository's model (models.py) became a small flax MLP with batch norm and dropout, and the data, optimizer and loop were added.
"""
from typing import Any, Callable

import jax
import jax.numpy as jnp
import jax.random as random
import optax
from flax import linen as nn
from flax import struct
from flax.training.train_state import TrainState


class TrainStateWithLoss(TrainState):
    loss_fn: Callable = struct.field(pytree_node=False)
    batch_stats: Any


def squared_loss(y, predicted):
    """
    Simple elementwise squared loss.
    """
    return (y - predicted) ** 2


mse_loss = jax.vmap(squared_loss, in_axes=0)


class MLP(nn.Module):
    dropout: float = 0.1

    @nn.compact
    def __call__(self, x_num, x_cat, train=True):
        x = jnp.concatenate([x_num, x_cat], axis=-1)
        x = nn.Dense(8)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.Dropout(self.dropout, deterministic=not train)(x)
        return nn.Dense(1)(x)[:, 0]


def train_step(rng, x_num, x_cat, y, state: TrainStateWithLoss):
    """Updates the training state on a batch (x_num, x_cat, y) of data.

    We can jit this function because our state subclasses a jax PyTreeNode.
    """

    def pure_loss(params):
        predicted, new_batch_stats = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            x_num,
            x_cat,
            rngs={"dropout": rng},
            mutable=["batch_stats"],
        )
        loss_items = state.loss_fn(y, predicted)
        return jnp.mean(loss_items), (predicted, new_batch_stats)

    aux, grad_step = jax.value_and_grad(pure_loss, has_aux=True)(state.params)
    loss_step = aux[0]
    predicted_step, batch_stats_updated = aux[1]
    state = state.apply_gradients(
        grads=grad_step, batch_stats=batch_stats_updated["batch_stats"]
    )
    residuals_step = y - predicted_step
    return state, loss_step, residuals_step


def train(rng, model, optimizer, train_dataset):
    rng, init_params_rng = random.split(rng, num=2)
    x_num, x_cat, _ = train_dataset[0]
    full_vars = model.init(init_params_rng, x_num, x_cat, train=False)
    params = full_vars["params"]
    batch_stats = full_vars["batch_stats"]

    train_state = TrainStateWithLoss(
        step=0,
        apply_fn=model.apply,
        loss_fn=jax.jit(mse_loss),
        params=params,
        tx=optimizer,
        opt_state=optimizer.init(params),
        batch_stats=batch_stats,
    )
    jitted_train_step = jax.jit(train_step)

    for (x_num, x_cat, y) in train_dataset:
        rng, rng_step = random.split(rng, num=2)
        train_state, loss_step, res_step = jitted_train_step(
            rng=rng_step, x_num=x_num, x_cat=x_cat, y=y, state=train_state,
        )
        print(f"Training Loss: {jnp.sqrt(loss_step):.4f}")
    return train_state


batches = [(jnp.ones((4, 3)) * i, jnp.ones((4, 2)), jnp.ones(4) * i) for i in range(3)]
train(random.PRNGKey(0), MLP(), optax.adam(1e-3), batches)
