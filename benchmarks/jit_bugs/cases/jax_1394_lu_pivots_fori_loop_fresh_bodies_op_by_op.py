"""Source: https://github.com/jax-ml/jax/pull/1394
Library: plain-jax
Reported: "Ensure all ops get cache hits on second op-by-op mode call": outside jit, `lax.while_loop` traces and compiles its cond and body functions and finds that compilation again only for the same function objects. j-towns found that LU "cache misses are probably caused by this function [`body_fn`] being redefined every time LU is called and then passed as an argument to fori_loop", and then that "fori_loop was also not getting cache hits, because of these two functions being freshly created on each call": `fori_loop` defined `while_cond_fun` and `while_body_fun` afresh at every call and handed them to `while_loop`, so every op-by-op `lu_pivots_to_permutation` (run by every un-jitted LU, `det`, `solve`) compiled the loop again. Fixed in commit b24d6ca (https://github.com/jax-ml/jax/commit/b24d6cacd3c4c408cd5d19926d346e254127d92a): the two closures are made by functions memoised on `upper` and `body_fun`, and `body_fn` moved to module level with `swaps` carried in the loop state.
Transcribed: `fori_loop` from jax/lax/lax_control_flow.py and `lu_pivots_to_permutation` from jax/lax_linalg.py at b24d6ca's parent (docstrings cut), with the 2019 APIs of today's JAX: `ops.index_update(x, ops.index[...], y)` is `x.at[...].set(y)`, `lax._const(i, 1)` is `np.int32(1)`, `np` (jax.numpy) is `jnp` and `onp` (NumPy) is `np`; `while_loop` is `jax.lax.while_loop`, called by its bare name as lax_control_flow.py does. The pivots come from `jax.lax.linalg.lu` of a fixed 3x3 matrix; the driver calls `lu_pivots_to_permutation` three times outside jit (the PR's test calls each op twice and asserts no compilation the second time), with a backend-compile counter added.
Hard: the fresh closures are made inside `fori_loop`, a function of the module that `lu_pivots_to_permutation` calls, and they go to `jax.lax.while_loop` (not to `jax.jit`) outside any jit; the loop that calls it again and again is the module's top-level `for`, two calls away.
Not marked: `body_fn`, also made afresh by every `lu_pivots_to_permutation` (the PR's first finding), goes into `while_body_fun`, which is made afresh anyway; with this `fori_loop` every call compiles whatever `body_fn` is, and the finding belongs where the loop is handed its functions. It becomes a second cause only once `fori_loop` memoises its closures on `body_fun`, as the fix does.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.lax import while_loop

compiles = 0


def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


def fori_loop(lower, upper, body_fun, init_val):
  """Loop from ``lower`` to ``upper`` by reduction to ``while_loop``."""
  def while_cond_fun(loop_carry):
    i, _ = loop_carry
    return lax.lt(i, upper)

  def while_body_fun(loop_carry):
    i, x = loop_carry
    return lax.add(i, np.int32(1)), body_fun(i, x)

  _, result = while_loop(while_cond_fun, while_body_fun, (lower, init_val))  # expect: jit-fresh-function
  return result


def lu_pivots_to_permutation(swaps, m):
  """Converts the pivots (row swaps) returned by LU to a permutation."""
  assert len(swaps.shape) >= 1
  batch_dims = swaps.shape[:-1]
  k = swaps.shape[-1]

  def body_fn(i, permutation):
    j = swaps[..., i]
    iotas = jnp.ix_(*(lax.iota(jnp.int32, b) for b in batch_dims))
    x = permutation[..., i]
    y = permutation[iotas + (j,)]
    permutation = permutation.at[..., i].set(y)
    return permutation.at[iotas + (j,)].set(x)

  permutation = lax.broadcasted_iota(jnp.int32, batch_dims + (m,),
                                     len(batch_dims))
  return fori_loop(
    np.array(0, np.int32), np.array(k, np.int32), body_fn, permutation)


a = jnp.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]])
_, pivots, expected = jax.lax.linalg.lu(a)
per_call = []
for _ in range(3):
  before = compiles
  perm = lu_pivots_to_permutation(pivots, 3)
  per_call.append(compiles - before)
print(perm, "expected", expected)
print("backend compilations per op-by-op call:", per_call)
