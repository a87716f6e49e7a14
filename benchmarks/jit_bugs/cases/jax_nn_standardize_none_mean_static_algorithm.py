"""Source: https://github.com/jax-ml/jax/blob/3e62889c7660f22cb4ad5402a7e78028c01dac4e/jax/_src/nn/functions.py
Library: plain-jax
Correct: jax.nn.standardize is jitted with static_argnames=("axis", "algorithm"): the algorithm string ("fast" or "stable") and the axis (an int, a tuple of ints or None) are static, while mean, variance and where default to None in traced positions; None is a pytree with no leaves, so jit traces nothing for it and the `if mean is None` tests run at trace time; epsilon, a Python float, is traced as a weak-typed scalar.
Transcribed: standardize from the file, its docstring shortened; numpy_util.check_arraylike and check_arraylike_or_none (argument checks) were cut and api.jit is jax.jit; an input, a mask and calls with the defaults, with algorithm="stable" and axis=None, with an explicit mean and mean=None, variance=None, and with where were added.
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.typing import ArrayLike
from jax import Array


@jax.jit(static_argnames=("axis", "algorithm"))
def standardize(x: ArrayLike,
                axis=-1,
                mean: ArrayLike | None = None,
                variance: ArrayLike | None = None,
                epsilon: ArrayLike = 1e-5,
                where: ArrayLike | None = None,
                *,
                algorithm: str = "fast") -> Array:
  r"""Standardizes input to zero mean and unit variance."""
  if mean is None:
    mean = jnp.mean(x, axis, keepdims=True, where=where)
  if variance is None:
    if algorithm == "stable":
      variance = jnp.mean(
          jnp.square(jnp.subtract(x, mean)), axis, keepdims=True, where=where)
    elif algorithm == "fast":
      # This definition is traditionally seen as less accurate than the
      # two-pass mean((x - mean(x))**2) but may be faster and even, given
      # typical activation distributions and low-precision arithmetic, more
      # accurate when used in neural network normalization layers.
      variance = jnp.mean(
          jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
      # Because we're using a less accurate variance definition, it may
      # return negative values. This is problematic for the rsqrt, so we
      # clip to 0.
      variance = jnp.clip(variance, 0)
    else:
      raise ValueError(
          f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
  return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)


x = jax.random.normal(jax.random.key(0), (3, 4))
mask = jnp.arange(4) < 3
print(standardize(x))
print(standardize(x, axis=None, algorithm="stable"))
print(standardize(x, (0, 1), jnp.zeros((1, 1)), None, 1e-3))
print(standardize(x, mean=None, variance=None, where=mask, algorithm="stable"))
