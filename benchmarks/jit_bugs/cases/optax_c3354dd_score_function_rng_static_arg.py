"""Source: https://github.com/google-deepmind/optax/commit/c3354dd27675644e8550b2b4883115c14b90f602
Library: plain-jax
Reported: "Prevent passing a non-hashable static argument to a jitted function." optax's tests of its stochastic gradient estimators jitted each estimator with `static_argnums=(0, 2, 3, 4)`, and position 3 is `rng`, a PRNG key array: with jax's switch to refusing unhashable static arguments (jax 0.2.6) the call fails with "Non-hashable static arguments are not supported"; the fix drops 3 from static_argnums (here and for the measure-valued estimator).
Transcribed: `score_function_jacobians` from optax/_src/stochastic_gradient_estimators.py and `multi_normal`/`MultiNormalDiagFromLogScale` from optax/_src/utils.py at the parent of the fix (c3354dd2^), docstrings shortened; from the test file, `_estimator_variant` and the body of `testConstantFunction` for constant 0.1 and the score-function estimator. chex is not installed: the test's `self.variant` is chex's jit variant, here `jax.jit` itself, and `chex.Array`/`chex.PRNGKey`/`transform.Params` are aliases of `jax.Array`/`Any`; the sample count is cut from 5*10**5 to 1000 and the assertions after the call are left out.
Hard: the key reaches the estimator's static position 3 through a jitted function made by a helper that passes static_argnums=(0, 2, 3, 4); the parameter is annotated as a PRNG key.
Not marked: position 0 gets a lambda made in the test and positions 2 and 4 a module-level function and an int, all hashable; the lambda is made once per test, not again and again.
"""
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import jax.scipy.stats.norm as multivariate_normal

Array = jax.Array  # chex.Array
PRNGKey = jax.Array  # chex.PRNGKey
Params = Any  # optax's transform.Params


def score_function_jacobians(
    function: Callable[[Array], float],
    params: Params,
    dist_builder: Callable[..., Any],
    rng: PRNGKey,
    num_samples: int) -> Sequence[Array]:
  r"""Score function gradient estimation."""
  def surrogate(params):
    dist = dist_builder(*params)
    one_sample_surrogate_fn = lambda x: function(x) * dist.log_prob(x)
    samples = jax.lax.stop_gradient(dist.sample((num_samples,), seed=rng))
    # We vmap the function application over samples - this ensures that the
    # function we use does not have to be vectorized itself.
    return jax.vmap(one_sample_surrogate_fn)(samples)

  return jax.jacfwd(surrogate)(params)


def multi_normal(loc, log_scale):
  return MultiNormalDiagFromLogScale(loc=loc, log_scale=log_scale)


class MultiNormalDiagFromLogScale():
  """MultiNormalDiag which directly exposes its input parameters."""

  def __init__(self, loc, log_scale):
    self._log_scale = log_scale
    self._scale = jnp.exp(log_scale)
    self._mean = loc
    self._param_shape = jax.lax.broadcast_shapes(
        self._mean.shape, self._scale.shape)

  def sample(self, shape, seed):
    sample_shape = shape + self._param_shape
    return jax.random.normal(
        seed, shape=sample_shape) * self._scale  + self._mean

  def log_prob(self, x):
    log_prob = multivariate_normal.logpdf(x, loc=self._mean, scale=self._scale)
    # Sum over parameter axes.
    sum_axis = [-(i +1) for i in range(len(self._param_shape))]
    return jnp.sum(log_prob, axis=sum_axis)


def _ones(dims):
  return jnp.ones(shape=(dims), dtype=jnp.float32)


def _estimator_variant(variant, estimator):
  return variant(estimator, static_argnums=(0, 2, 3, 4))


variant = jax.jit  # chex's jit variant of the test
constant = 0.1
estimator = score_function_jacobians
data_dims = 3
num_samples = 1000

effective_mean = 1.5
mean = effective_mean * _ones(data_dims)

effective_log_scale = 0.0
log_scale = effective_log_scale * _ones(data_dims)
rng = jax.random.PRNGKey(1)

jacobians = _estimator_variant(variant, estimator)(
    lambda x: jnp.array(constant), [mean, log_scale],
    multi_normal, rng, num_samples)  # expect: static-dynamic-child
print(jacobians[0].shape)
