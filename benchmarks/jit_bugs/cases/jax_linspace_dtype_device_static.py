"""Source: https://github.com/jax-ml/jax/blob/11cefe972901007f9214665ebc4e7136b8f12687/jax/_src/numpy/array_creation.py
Library: plain-jax
Correct: jnp.linspace forwards to _linspace, jitted with static_argnames=('num', 'endpoint', 'retstep', 'dtype', 'axis', 'device'); the dtype (a numpy dtype or scalar type such as jnp.int32) and the keyword-only device (a jax.Device, hashable, one object per device) are static arguments, as are the Python int and bool flags, and only start and stop are traced. One compilation per distinct combination of static values.
Transcribed: linspace (without its overloads, docstring shortened) and _linspace from the file, with the annotations naming jax-internal types (DTypeLike, xc.Device, Sharding, ArrayLike) dropped and api.jit as jax.jit; internal helpers became public equivalents: core.concrete_dim_or_error and core.concrete_or_error became operator.index, util.ensure_arraylike became jnp.asarray, dtypes.to_inexact_dtype a small helper, dtypes.check_and_canonicalize_user_dtype jax.dtypes.canonicalize_dtype, util._broadcast_to jnp.broadcast_to, canonicalize_axis a modulo, asarray/full/empty/finfo their jnp forms, and util.canonicalize_device_to_sharding with lax._convert_element_type(out, dtype, sharding=...) became astype followed by jax.device_put to a SingleDeviceSharding; calls with a dtype, a device and retstep were added.
"""
import operator

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def _to_inexact_dtype(dtype):
  if jnp.issubdtype(dtype, jnp.inexact):
    return dtype
  return jax.dtypes.canonicalize_dtype(float)


def linspace(start, stop, num: int = 50,
             endpoint: bool = True, retstep: bool = False,
             dtype=None,
             axis: int = 0,
             *, device=None):
  """Return evenly-spaced numbers within an interval."""
  num = operator.index(num)
  axis = operator.index(axis)
  return _linspace(start, stop, num, endpoint, retstep, dtype, axis, device=device)

@jax.jit(static_argnames=('num', 'endpoint', 'retstep', 'dtype', 'axis', 'device'))
def _linspace(start, stop, num: int = 50,
              endpoint: bool = True, retstep: bool = False,
              dtype=None,
              axis: int = 0,
              *, device=None):
  """Implementation of linspace differentiable in start and stop args."""
  if num < 0:
    raise ValueError(f"Number of samples, {num}, must be non-negative.")
  start, stop = jnp.asarray(start), jnp.asarray(stop)

  if dtype is None:
    dtype = _to_inexact_dtype(jnp.result_type(start, stop))
  else:
    dtype = jax.dtypes.canonicalize_dtype(dtype)
  computation_dtype = _to_inexact_dtype(dtype)
  start = start.astype(computation_dtype)
  stop = stop.astype(computation_dtype)

  bounds_shape = list(lax.broadcast_shapes(np.shape(start), np.shape(stop)))
  broadcast_start = jnp.broadcast_to(start, bounds_shape)
  broadcast_stop = jnp.broadcast_to(stop, bounds_shape)
  axis = len(bounds_shape) + axis + 1 if axis < 0 else axis
  bounds_shape.insert(axis, 1)
  div = (num - 1) if endpoint else num
  if num > 1:
    delta = lax.convert_element_type(stop - start, computation_dtype) / jnp.asarray(div, dtype=computation_dtype)
    iota_shape = [1,] * len(bounds_shape)
    iota_shape[axis] = div
    # This approach recovers the endpoints with float32 arithmetic,
    # but can lead to rounding errors for integer outputs.
    real_dtype = jnp.finfo(computation_dtype).dtype
    step = lax.iota(real_dtype, div).reshape(iota_shape) / jnp.asarray(div, real_dtype)
    step = step.astype(computation_dtype)
    out = (broadcast_start.reshape(bounds_shape) * (1 - step) +
      broadcast_stop.reshape(bounds_shape) * step)

    if endpoint:
      out = lax.concatenate([out, lax.expand_dims(broadcast_stop, (axis,))],
                            axis % out.ndim)

  elif num == 1:
    delta = jnp.asarray(np.nan if endpoint else stop - start, dtype=computation_dtype)
    out = broadcast_start.reshape(bounds_shape)
  else:  # num == 0 degenerate case, match numpy behavior
    empty_shape = list(lax.broadcast_shapes(np.shape(start), np.shape(stop)))
    empty_shape.insert(axis, 0)
    delta = jnp.full((), np.nan, computation_dtype)
    out = jnp.empty(empty_shape, dtype)

  if jnp.issubdtype(dtype, np.integer) and not jnp.issubdtype(out.dtype, np.integer):
    out = lax.floor(out)

  result = out.astype(dtype)
  if device is not None:
    result = jax.device_put(result, jax.sharding.SingleDeviceSharding(device))
  return (result, delta) if retstep else result


print(linspace(0, 10, 5))
print(linspace(0, 10, 8, endpoint=False, dtype=jnp.int32))
cpu = jax.devices()[0]
vals, step = linspace(jnp.array([0, 5]), jnp.array([5, 10]), 5, retstep=True,
                      dtype=np.float32, device=cpu)
print(vals, step)
print(linspace(0.0, 1.0, 3, device=jax.devices()[0]))
