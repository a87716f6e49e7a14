"""Source: https://github.com/jax-ml/jax/issues/1426
Library: plain-jax
Reported: "JIT loses access to local variables": `loss_sum` closes over the local `a`; `jax.grad(loss_sum)` follows a later `a = 20` (the gradient doubles), but `jax.jit(jax.grad(loss_sum))` traced with `a = 10` keeps returning the old gradient after `a = 20`, so the reporter's second assertion fails. The reporter closed it: "I realized that I should call `jax.jit`" again after the change (the traced value of a closure variable is compiled in, and jit's cache does not look at it again).
Transcribed: the issue's second snippet, unchanged but for `np` being `jax.numpy` (the report's import); the two `assert`s turned into prints of the gradient beside the expected one so that the driver runs to the end, and a call of `test_retain()` added.
Hard: the rebound name is a local of the enclosing function, read by the closure `loss_sum` that `jax.grad` wraps and `jax.jit` compiles; the call that runs the stale code is inside that function, not at module level.
"""
import jax
import jax.numpy as np


def test_retain():
    a = 10
    def loss_sum(val):
        loss = np.sum(val[:2]**2 + val[2:]**3) * a
        return loss
    grad = jax.jit(jax.grad(loss_sum))     # added JIT
    gs = grad(np.array([2, 3, 4, 5], dtype=float))
    print(gs, "expected", np.array([  40.,  60.,  480., 750.]))
    a = 20
    gs = grad(np.array([2, 3, 4, 5], dtype=float))  # expect: jit-stale-global
    print(gs, "expected", np.array([  80.,  120.,  960., 1500.]))  # fails: still the a = 10 gradient


test_retain()
