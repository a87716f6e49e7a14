"""Source: https://github.com/muhrin/reax/blob/09415285c9f73265547c682e95f9811b951ff746/src/reax/optimizers.py
Library: plain-jax
Correct: reax's `Optimizer` builds its optax GradientTransformation once (`from_params`) and passes that same object on: every updated `Optimizer` is `type(self)(self.optimizer, new_state, ...)`, so the module-level `_update`, jitted with `static_argnames=("optimizer",)`, meets one identity-hashed transformation (a named tuple of closures) and compiles once. A checker must not flag an optax transformation in a static position when it is made once and passed on, nor the equinox module that stores it.
Transcribed: src/reax/optimizers.py at 09415285, unchanged but for docstrings and without the `eqx.filter_jit` method `update` (left out because it recompiles at every step for another reason: `update_count` starts as the Python int 0 and comes back incremented, a new static value each call). Added a driver: an optax.adam transformation made once (its update wrapped to count traces), `Optimizer.from_params`, and three steps through `_update`, what `update_module` calls (reax's Module is not installed).
"""
import functools
from typing import TYPE_CHECKING, Any, Union

import equinox
import jax
import jax.numpy as jnp
import jaxtyping as jt
import optax

if TYPE_CHECKING:
    import reax

__all__ = ("Optimizer",)


class Optimizer(equinox.Module):
    optimizer: optax.GradientTransformation
    state: optax.OptState
    update_count: Union[
        int, jt.Int[jax.Array, ""]
    ]  # Total number of times this optimizer was used to parameters

    @classmethod
    def from_params(cls, opt: optax.GradientTransformation, params: optax.Params) -> "Optimizer":
        """From params."""
        return cls(opt, opt.init(params))

    def __init__(
        self,
        opt: optax.GradientTransformation,
        state: optax.OptState,
        count: Union[int, jt.Int[jax.Array, ""]] = 0,
    ):
        """Init function."""
        self.optimizer = opt
        self.state = state
        self.update_count = count

    def update_module(self, module: "reax.Module", grad: jt.PyTree) -> "Optimizer":
        """Perform an inplace update of the module parameters given the passed gradients."""
        new_params, new_state = _update(self.optimizer, self.state, grad, module.parameters())
        module.set_parameters(new_params)
        count = getattr(new_state, "gradient_step", self.update_count + 1)
        return type(self)(self.optimizer, new_state, count=count)


@functools.partial(jax.jit, static_argnames=("optimizer",), donate_argnames=("state", "params"))
def _update(optimizer: optax.GradientTransformation, state, grad: dict, params):
    """Jax jitted function that performs an optimizer update based on the passed gradients and
    parameters."""
    updates, new_state = optimizer.update(grad, state, params=params)
    params = optax.apply_updates(params, updates)

    return params, new_state


mock_optimizer = optax.GradientTransformation(
    init=lambda params: {},
    update=lambda grad, opt_state, *_, **__: (jax.tree.map(jnp.zeros_like, grad), opt_state),
)


traces = 0
adam = optax.adam(1e-3)


def counted_update(grad, state, params=None):
    global traces
    traces += 1
    return adam.update(grad, state, params)


tx = optax.GradientTransformation(adam.init, counted_update)
params = {"w": jnp.ones(3)}
grad = {"w": jnp.full(3, 0.1)}
opt = Optimizer.from_params(tx, params)
state = opt.state
for _ in range(3):
    params, state = _update(opt.optimizer, state, grad, params)
    opt = type(opt)(opt.optimizer, state, count=opt.update_count + 1)
print("traces:", traces)  # 1
