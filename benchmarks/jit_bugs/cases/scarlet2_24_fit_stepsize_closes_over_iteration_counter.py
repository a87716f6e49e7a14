"""Source: https://github.com/pmelchior/scarlet2/pull/24
Library: plain-jax
Reported: the pull request lets a parameter's step size be a function of the parameter and the iteration, `s(p, it)`, read by `Scene.fit`'s local `scale_by_stepsize` transformation from the local counter `it` that the fit loop increments; the maintainer reported that "this functionality appears not to work when the `_make_step` function in `scene.py` is jitted": `_make_step` is an `eqx.filter_jit` function that holds the optimizer static, so its update closure is traced once with `it = 0`, and every later step of the fit reuses that compiled code while `it` grows. The follow-up commit c79f8f2 (pull request 27, "iteration counter now jittable") passes `it` to `_make_step` as an argument instead. Running it here, `_make_step` traces once for five iterations and the traced step size only ever saw `it = 0` (0.5 at every step): the fitted flux after five steps is 1.585, where the same update with the counter read at each step (0.5/(1+it)) gives 1.034.
Transcribed: `Scene.fit` and `_make_step` from scarlet2/scene.py at e132ed6 (the pull request's code before c79f8f2), cut down: the scene is a one-parameter `eqx.Module` whose call returns its flux, an observation is a target array with a squared-error `log_likelihood`, and the parameter lookup (`get_parameters`, `rgetattr`), the constraint transforms and priors (numpyro), `filter_spec`, the tqdm progress bar, the callback and the convergence test are left out, so `stepsizes` is passed in and `steps` is built with `eqx.tree_at` on the field. A trace counter, a record of the counter value each traced step size sees, and a driver fitting with the step size `lambda p, it: 0.5 / (1 + it)` were added, beside a reference loop that applies the same update with the counter read at each step.
Hard: the value read stale is `it`, a local of `fit` rebound by `it += 1` inside the loop and read by the closure `update_fn` inside the optax chain that `eqx.filter_jit` keeps static; the call that runs the stale code is inside a method, and the name it reads is neither a global nor a closure variable of the jitted function itself but of a function held in its static argument.
"""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax
import optax._src.base as base

TRACES = [0]
SEEN_IT = []


class Observation(eqx.Module):
    data: jax.Array

    def log_likelihood(self, pred):
        return -0.5 * jnp.sum((pred - self.data) ** 2)


class Scene(eqx.Module):
    flux: jax.Array

    def __call__(self):
        return self.flux

    def fit(self, observations, stepsizes, max_iter=100, **kwargs):
        # dealing with multiple observations
        if not isinstance(observations, (list, tuple)):
            observations = (observations,)
        else:
            observations = observations

        # make a stepsize tree
        where = lambda model: (model.flux,)
        replace = tuple(stepsizes.values())
        steps = eqx.tree_at(where, self, replace=replace)
        it = 0

        def scale_by_stepsize() -> base.GradientTransformation:
            # adapted from optax.scale_by_param_block_norm()
            def init_fn(params):
                del params
                return base.EmptyState()

            def update_fn(updates, state, params):
                if params is None:
                    raise ValueError(base.NO_PARAMS_MSG)
                SEEN_IT.append(it)
                updates = jax.tree_util.tree_map(
                    lambda u, s, p: -s * u if not callable(s) else -s(p, it) * u,
                    # minus because we want gradient descent
                    updates, steps, params)
                return updates, state

            return base.GradientTransformation(init_fn, update_fn)

        # run adam, followed by stepsize adjustments
        optim = optax.chain(
            optax.scale_by_adam(**kwargs),
            scale_by_stepsize(),
        )

        scene = self
        opt_state = optim.init(scene)

        for step in range(max_iter):
            # optimizer step
            scene_, loss, opt_state = _make_step(scene, observations, optim, opt_state)  # expect: jit-stale-global
            scene = scene_
            it += 1
        return scene_


# update step for optax optimizer
@eqx.filter_jit
def _make_step(model, observations, optim, opt_state):
    TRACES[0] += 1

    def loss_fn(model):
        pred = model()
        log_like = sum(obs.log_likelihood(pred) for obs in observations)
        return -log_like

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = optim.update(grads, opt_state, model)
    model_ = eqx.apply_updates(model, updates)
    return model_, loss, opt_state


stepsize = lambda p, it: 0.5 / (1 + it)
scene = Scene(flux=jnp.zeros(()))
obs = Observation(data=jnp.ones(()))
fitted = scene.fit(obs, {"flux": stepsize}, max_iter=5)

# reference: the same adam + step-size update, with the counter read at every step
adam = optax.scale_by_adam()
flux, adam_state = jnp.zeros(()), adam.init(jnp.zeros(()))
for it in range(5):
    u, adam_state = adam.update(-(1.0 - flux), adam_state)
    flux = flux - stepsize(flux, it) * u

print("traces of _make_step:", TRACES[0], "counter values the step size saw:", SEEN_IT)
print("fitted flux:", float(fitted.flux), "with the counter read at each step:", float(flux))
assert TRACES[0] == 1 and SEEN_IT == [0], (TRACES, SEEN_IT)
print("BUG: every step of the fit used the step size for it = 0")
