"""Source: https://github.com/jax-ml/jax/blob/362cddf8a3805003363f677866337cbafdbc612b/jax/_src/random/core.py
Library: plain-jax
Correct: jax.random.exponential canonicalizes dtype to a numpy dtype and shape to a tuple of ints, then calls _exponential, jitted with static_argnums=(1, 2), through maybe_auto_axes, which binds them as keywords with functools.partial(f, shape=shape, dtype=dtype); jit maps static_argnums to the parameter names, so the keyword-passed shape and dtype are static (both hashable and compared by value) and only the key is traced. The dtype object in the call is no traced array.
Transcribed: _check_shape, maybe_auto_axes, exponential and _exponential from the file; in exponential, _check_prng_key was cut, dtypes.check_and_canonicalize_user_dtype became the public jax.dtypes.canonicalize_dtype, core.canonicalize_shape became tuple(), the out_sharding parameter and canonicalize_sharding_for_samplers were cut (out_sharding stays None), and uniform is jax.random.uniform; the docstring was shortened; calls with the default dtype and with jnp.float16 were added.
"""
from functools import partial

import jax
import numpy as np
from jax import jit, lax
from jax.sharding import auto_axes


def _check_shape(name, shape, *param_shapes) -> None:
  if param_shapes:
    shape_ = lax.broadcast_shapes(shape, *param_shapes)
    if shape != shape_:
      msg = ("{} parameter shapes must be broadcast-compatible with shape "
             "argument, and the result of broadcasting the shapes must equal "
             "the shape argument, but got result {} for shape argument {}.")
      raise ValueError(msg.format(name, shape_, shape))


def maybe_auto_axes(f, out_sharding, **hoist_kwargs):
  f_ = partial(f, **hoist_kwargs)
  if out_sharding is None:
    return f_
  else:
    return auto_axes(f_, out_sharding=out_sharding,
                     axes=out_sharding.mesh.explicit_axes)


def exponential(key, shape=(), dtype=None):
  r"""Sample Exponential random values with given shape and float dtype."""
  dtype = jax.dtypes.canonicalize_dtype(float if dtype is None else dtype)
  if not jax.dtypes.issubdtype(dtype, np.floating):
    raise ValueError(f"dtype argument to `exponential` must be a float "
                     f"dtype, got {dtype}")
  shape = tuple(shape)
  out_sharding = None
  return maybe_auto_axes(_exponential, out_sharding,
                         shape=shape, dtype=dtype)(key)

@jit(static_argnums=(1, 2))
def _exponential(key, shape, dtype):
  _check_shape("exponential", shape)
  u = jax.random.uniform(key, shape, dtype)
  # taking 1 - u to move the domain of log to (0, 1] instead of [0, 1)
  return lax.neg(lax.log1p(lax.neg(u)))


key = jax.random.key(0)
print(exponential(key, (3,)))
print(exponential(key, [2, 2], dtype=jax.numpy.float16))
