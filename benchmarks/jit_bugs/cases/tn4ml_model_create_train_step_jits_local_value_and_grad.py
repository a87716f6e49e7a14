"""Source: https://github.com/bsc-quantic/tn4ml/blob/4c048dab047a4f9a0a4dba0eceb1ab6411a6b5f3/tn4ml/models/model.py
Library: plain-jax
Correct: `Model.create_train_step` defines `value_and_grad` once and returns `train_step`, which calls `jax.jit(value_and_grad, backend=...)(params, data, targets)` on every training step. The `jax.jit(...)` wrapper is rebuilt per step, but it always wraps the same function object (made once per `create_train_step` call, before the loop), and JAX keys its tracing cache on that function, so the whole training loop traces `value_and_grad` once. A checker that reports every `jax.jit(...)` called inside a function that a loop runs would be wrong here; the later commit 88afb4b ("Fix jit compilation in model.py") hoisted the wrapper out of `train_step`, saving only the wrapper's Python overhead.
Transcribed: `create_train_step` verbatim from tn4ml/models/model.py at the parent (4c048dab) of commit 88afb4b, as a method of a minimal `Model` class standing in for the quimb TensorNetwork subclass (attributes `optimizer`, `device`, a list of parameter arrays and an `update_tensors` that stores them); `gradient_clip` from tn4ml/util.py is not reached (no threshold is given) and is replaced by a stub; a linear least-squares `loss_fn` jitted once as `train()` does (`self.loss_func = jax.jit(loss_fn, backend=self.device[0])`), the global-strategy epoch/batch loop of `train()` reduced to two epochs of three batches, and a trace counter were added. `backend=` is deprecated in jax 0.10.2 and only warns.
"""
import jax
import jax.numpy as jnp
import optax

TRACES = [0]


def gradient_clip(grads, threshold=1.0):
    raise NotImplementedError  # not reached: no threshold is given


class Model:
    def __init__(self, arrays, optimizer, device=("cpu", 0)):
        self.arrays = tuple(arrays)
        self.optimizer = optimizer
        self.device = device

    def update_tensors(self, params):
        self.arrays = tuple(params)

    def create_train_step(self, params, loss_func):
        """Creates function for calculating value and gradients of loss, and function for one step in training procedure.
        Initializes the optimizer and creates optimizer state.
        """
        init_params = {i: jnp.array(data) for i, data in enumerate(params)}
        opt_state = self.optimizer.init(init_params)

        def value_and_grad(params, data=None, targets=None):
            """Calculates loss value and gradient."""
            TRACES[0] += 1

            def loss_scalar_fn(data, targets, *params):
                return loss_func(data, targets, *params)

            loss, grads = jax.value_and_grad(
                loss_scalar_fn, argnums=range(2, 2 + len(params))
            )(data, targets, *params)
            return loss, grads

        def train_step(params, opt_state, data=None, grad_clip_threshold=None):
            """Performs one training step."""

            if data is not None:
                if isinstance(data, tuple) and len(data) == 2:
                    data, targets = data
                    data, targets = jnp.array(data), jnp.array(targets)
                    data = jax.device_put(
                        data, device=jax.devices(self.device[0])[self.device[1]]
                    )
                    targets = jax.device_put(
                        targets, device=jax.devices(self.device[0])[self.device[1]]
                    )
                else:
                    data = jax.device_put(
                        jnp.array(data),
                        device=jax.devices(self.device[0])[self.device[1]],
                    )
                    targets = None
            else:
                targets = None

            loss, grads = jax.jit(value_and_grad, backend=self.device[0])(
                params, data, targets
            )

            if grad_clip_threshold:
                grads = gradient_clip(grads, grad_clip_threshold)

            # convert to pytree structure
            grads = {i: jnp.array(data) for i, data in enumerate(grads)}
            params = {i: jnp.array(data) for i, data in enumerate(params)}

            updates, opt_state = self.optimizer.update(grads, opt_state)
            params = optax.apply_updates(params, updates)

            # convert back to arrays
            params = tuple(jnp.array(v) for v in params.values())

            # update TN inplace
            self.update_tensors(params)

            return params, opt_state, loss

        return train_step, opt_state


def loss_fn(data=None, targets=None, *params):
    return jnp.mean((data @ params[0] + params[1] - targets) ** 2)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model = Model([jnp.zeros((4, 1)), jnp.zeros((1,))], optax.adam(1e-2))
    model.loss_func = jax.jit(loss_fn, backend=model.device[0])
    model.step, model.opt_state = model.create_train_step(
        params=model.arrays, loss_func=model.loss_func
    )
    for epoch in range(2):
        for b in range(3):
            x = jax.random.normal(jax.random.fold_in(key, 10 * epoch + b), (8, 4))
            batch_data = (x, x.sum(axis=1, keepdims=True))
            params = model.arrays
            _, model.opt_state, loss_curr = model.step(
                params, model.opt_state, batch_data, grad_clip_threshold=None
            )
    print("traces of value_and_grad:", TRACES[0], "loss:", float(loss_curr))
    assert TRACES[0] == 1, TRACES
    print("OK: jax.jit rebuilt per step around one function object traces once")
