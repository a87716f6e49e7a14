"""Source: https://github.com/markean/aimz/issues/202
Library: plain-jax
Reported: "Hoist `seed(self.kernel, rng_seed=self.rng_key)` out of the per-batch loop so the JIT cache is reused across batches instead of being invalidated every iteration by a freshly-constructed `seed(...)` wrapper." `ImpactModel.log_likelihood` passed a new NumPyro `seed` handler, made inside its loop over batches, as the `kernel` argument of a function jitted with `static_argnames=["kernel", ...]`; the handler hashes by identity, so every batch traced and compiled the log-likelihood again (fixed in commit 5937410, which seeds once before the loop).
Transcribed: `_create_sharded_log_likelihood` from aimz/utils/data/_sharding.py and the batch loop of `ImpactModel.log_likelihood` from aimz/model/impact_model.py at 5937410^ (the parent of the fix), cut to the single-device path (`mesh is None`); the zarr writer threads, progress bar, output directory and sharding are left out and the batches are collected in a list. NumPyro is not installed: `seed` and its base `Messenger` are stand-ins with the attributes this code uses (numpyro's are plain classes hashed by identity), and `log_lik` stands in for `numpyro.infer.log_likelihood` (the kernel's log density vmapped over the posterior draws). The data loader is replaced by slicing `X` and `y` into batches; the kernel (a linear-Gaussian model returning its log density), the posterior, the model's construction and a trace counter were added.
Hard: the jitted function is made by a module-level factory (`partial(jit, static_argnames=[...])(f)`) and stored on `self._fn_log_likelihood`; the static `kernel` is passed positionally; the value is a new instance of an identity-hashed class built inside the `for` loop of a method.
"""
from functools import partial

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
from jax import Array, device_get, jit

traces = 0


class Messenger:  # stand-in for numpyro.primitives.Messenger
    def __init__(self, fn=None):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


class seed(Messenger):  # stand-in for numpyro.handlers.seed
    def __init__(self, fn=None, rng_seed=None):
        self.rng_key = rng_seed
        super().__init__(fn)


def log_lik(model, posterior_samples, **kwargs):  # stand-in for numpyro.infer.log_likelihood
    return jax.vmap(lambda sample: model(**sample, **kwargs))(posterior_samples)


def _create_sharded_log_likelihood(
    mesh,
    n_kwargs_array: int,
    n_kwargs_extra: int,
):
    def f(
        kernel,
        posterior_samples: dict,
        param_input: str,
        param_output: str,
        kwargs_key: tuple[str, ...],
        X: Array,
        y: Array,
        *args: tuple,
    ) -> Array:
        global traces
        traces += 1
        return log_lik(
            kernel,
            posterior_samples=posterior_samples,
            **{
                param_input: X,
                param_output: y,
                **dict(zip(kwargs_key, args, strict=True)),
            },
        ).get(param_output)

    if mesh is None:
        return partial(
            jit,
            static_argnames=[
                "kernel",
                "param_input",
                "param_output",
                "kwargs_key",
            ],
        )(f)


def linear_kernel(X, y=None, w=0.0, sigma=1.0):
    return {"y": stats.norm.logpdf(y, w * X, sigma)}


class ImpactModel:
    def __init__(self, kernel, posterior, rng_key, param_input="X", param_output="y"):
        self.kernel = kernel
        self.posterior = posterior
        self.rng_key = rng_key
        self.param_input = param_input
        self.param_output = param_output
        self._mesh = None
        self._fn_log_likelihood = None

    def log_likelihood(self, X, y, batch_size=4):
        if self._fn_log_likelihood is None:
            self._fn_log_likelihood = _create_sharded_log_likelihood(self._mesh, 0, 0)
        site = self.param_output
        out = []
        for start in range(0, X.shape[0], batch_size):
            batch = {self.param_input: X[start:start + batch_size], self.param_output: y[start:start + batch_size]}
            arr = device_get(
                self._fn_log_likelihood(
                    # Although computing the log-likelihood is deterministic, the
                    # model still needs to be seeded in order to trace its graph.
                    seed(self.kernel, rng_seed=self.rng_key),  # expect: static-identity-hash
                    self.posterior,
                    self.param_input,
                    site,
                    (),
                    batch[self.param_input],
                    batch[self.param_output],
                ),
            )
            out.append(arr)
        return jnp.concatenate(out, axis=1)


key = jax.random.PRNGKey(0)
X = jnp.linspace(0.0, 1.0, 16)
y = 2.0 * X
posterior = {"w": jnp.array([1.9, 2.0, 2.1]), "sigma": jnp.array([0.5, 0.4, 0.6])}
model = ImpactModel(linear_kernel, posterior, key)
ll = model.log_likelihood(X, y, batch_size=4)
print(ll.shape)
print("traces:", traces)  # 4: one per batch of equal shape, where one would do
