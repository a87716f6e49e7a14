"""Source: https://github.com/pmelchior/scarlet2/commit/f127789e9ff78d1cd521107d54737cd242ca7362
Library: plain-jax
Reported: the commit "fixes recompilation issue (#120, #112)": every `fit()` call built a new optax optimizer (`optax.chain(optax.scale_by_yogi(...), optax.scale_by_schedule(... lambda x: 1), scale_by_stepsize())`, with a local `scale_by_stepsize`) and a new `eqx.Module` class for the parameters, both passed to the `eqx.filter_jit`-ed `_make_step`; filter_jit keeps the optimizer (no array) static, and "JAX's JIT cache keys static args by Python identity, so a fresh `optax.chain(...)` from each fit() call would otherwise miss the cache and recompile `_make_step` every time" (issue #120: fitting again re-traces `_make_step`). The fix caches the optimizer (`functools.lru_cache`, module-level `_unit_schedule`) and the parameter class.
Transcribed: `_dict_to_eqx_module`, the optimizer construction inside `fit` and the loop calling `_make_step` from src/scarlet2/infer.py at the commit's parent (f127789~1); scarlet2's Scene/Observation/Parameter machinery is replaced by a dict of arrays fitted to a target array by a squared loss (so `_make_step(values, params, scene, observations, optim, opt_state)` became `_make_step(values, target, optim, opt_state)`, the constraint transforms, priors, progress bar, callback and convergence test are left out, and `steps` is a tuple of floats unflattened into the parameter tree); a trace counter and two identical `fit` calls on float32 parameter arrays were added (each fit runs five steps on one trace; the second fit traces again).
Hard: the optimizer is static only because eqx.filter_jit holds every non-array leaf static; optax is untyped, so the fresh callables are the lambda, the local scale_by_stepsize's init_fn/update_fn and optax's closures inside the chain made by each fit() call.
Not marked: the parameter module's class, made afresh by `type(name, (eqx.Module,), ...)` in every fit() call, is a second reason the treedef differs between fits; no code names a fresh class.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree as jt
import optax
import optax._src.base as base

TRACES = [0]


def _dict_to_eqx_module(name: str, data: dict):
    # Build field annotations dynamically
    annotations = {k: type(v) for k, v in data.items()}

    # Create a class that inherits from eqx.Module
    cls = type(name, (eqx.Module,), {"__annotations__": annotations})

    # Instantiate with the dict values
    return cls(**data)


def fit(target, values, stepsizes, schedule=None, max_iter=5, **kwargs):
    # construct eqx.Module containing all parameter arrays as attributes
    values = _dict_to_eqx_module("ParamModel", values)
    treedef = jt.structure(values)
    steps = jt.unflatten(treedef, tuple(stepsizes))

    def scale_by_stepsize() -> base.GradientTransformation:
        # adapted from optax.scale_by_param_block_norm()
        def init_fn(params):
            del params
            return base.EmptyState()

        def update_fn(updates, state, params):
            if params is None:
                raise ValueError(base.NO_PARAMS_MSG)
            updates = jt.map(
                # minus because we want gradient descent
                lambda u, s, p: None if u is None else -s * u if not callable(s) else -s(p) * u,
                updates,
                steps,
                params,
                is_leaf=lambda x: x is None,
            )
            return updates, state

        return base.GradientTransformation(init_fn, update_fn)

    # run adam, followed by stepsize adjustments
    optim = optax.chain(
        optax.scale_by_yogi(**kwargs),
        optax.scale_by_schedule(schedule if callable(schedule) else lambda x: 1),
        scale_by_stepsize(),
    )

    opt_state = optim.init(values)

    for step in range(max_iter):  # noqa: B007
        # optimizer step
        values, loss, opt_state, convergence = _make_step(
            values, target, optim, opt_state  # expect: static-fresh-callable
        )
    return values, loss


# update step for optax optimizer
@eqx.filter_jit
def _make_step(values, target, optim, opt_state):
    TRACES[0] += 1

    def loss_fn(values):
        return sum(jnp.sum((v - target) ** 2) for v in jt.leaves(values))

    loss, grads = eqx.filter_value_and_grad(loss_fn)(values)
    updates, opt_state = optim.update(grads, opt_state, values)
    values_ = eqx.apply_updates(values, updates)

    # for convergence criterion: compute norms of parameters and updates
    norm = lambda x, dx: 0 if dx is None else jnp.linalg.norm(dx) / jnp.linalg.norm(x)
    convergence = jt.map(lambda x, dx: norm(x, dx), values, updates)

    return values_, loss, opt_state, convergence


if __name__ == "__main__":
    target = jnp.ones(4)
    for _ in range(2):
        fit(target, {"flux": jnp.full(4, 2.0, dtype=jnp.float32), "shift": jnp.zeros(4, dtype=jnp.float32)}, (0.1, 0.1))
    print("traces of _make_step:", TRACES[0])
    assert TRACES[0] == 2, TRACES
    print("BUG: the second, identical fit() re-traced _make_step")
