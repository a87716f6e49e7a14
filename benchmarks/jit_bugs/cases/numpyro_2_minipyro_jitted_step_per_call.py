"""Source: https://github.com/pyro-ppl/numpyro/issues/2
Library: plain-jax
Reported: jit in the minipyro example does not work as expected: the `jitted` function defined inside SVI.step is compiled again each time step is called.
Transcribed: SVI.step and the training loop as they stood when the issue was filed (numpyro commit 34c60065, numpyro/svi.py and numpyro/examples/minipyro.py); jax.experimental.optimizers is now jax.example_libraries.optimizers, and its removed module function get_params is taken from optimizers.adam's triple. numpyro's seed/trace handlers, the model, guide and elbo are replaced by minimal definitions (a two-parameter quadratic loss); the loop runs 5 steps instead of args.num_steps, and a trace counter was added.
Hard: @jit decorates a function defined inside a method, so every call of step (made from the training loop) builds and jits a new closure over self and compiles it again.
"""
from jax import grad, jit
from jax.example_libraries import optimizers
import jax.numpy as np
from jax import random
from jax.random import PRNGKey

TRACES = 0
_, _, get_params = optimizers.adam(0.02)  # was the module function optimizers.get_params


def model(data):
    pass


def guide(data):
    pass


def elbo(param_map, model, guide, args, kwargs):
    global TRACES
    TRACES += 1
    (data,) = args
    return np.sum((data - param_map["guide_loc"]) ** 2) + param_map["guide_scale_log"] ** 2


class SVI(object):
    def __init__(self, model, guide, opt_init, opt_update, loss, init_rng=PRNGKey(0)):
        self.model = model
        self.guide = guide
        self.opt_init = opt_init
        self.opt_update = opt_update
        self.loss = loss

    def init_state(self, *args, **kwargs):
        params = {"guide_loc": 0., "guide_scale_log": 0.}
        return self.opt_init(params)

    def step(self, i, *args, **kwargs):
        @jit  # expect: jit-fresh-function
        def jitted(i, opt_state, *args, **kwargs):
            params = get_params(opt_state)
            loss = self.loss(params, self.model, self.guide, args, kwargs)
            grads = grad(self.loss)(params, self.model, self.guide, args, kwargs)
            opt_state = self.opt_update(i, grads, opt_state)
            return loss, opt_state
        opt_state = kwargs.pop('opt_state')
        if opt_state is None:
            opt_state = self.init_state(*args, **kwargs)
        return jitted(i, opt_state, *args, **kwargs)


def main():
    data = random.normal(PRNGKey(0), shape=(100,)) + 3.0
    opt_init, opt_update, _ = optimizers.adam(0.02)
    svi = SVI(model, guide, opt_init, opt_update, elbo)

    opt_state = None
    for i in range(5):
        loss, opt_state = svi.step(i, data, opt_state=opt_state)
    print("traces:", TRACES)  # 10: loss and grad traced again on every step


main()
