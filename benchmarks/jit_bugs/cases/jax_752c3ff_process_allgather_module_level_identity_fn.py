"""Source: https://github.com/jax-ml/jax/blob/752c3ffcd94806697ecb58fc42ff2669948a0226/jax/experimental/multihost_utils.py
Library: plain-jax
Correct: `process_allgather` after commit 752c3ff ("Lift `lambda x: x` to the top level so that we don't recompile on every invocation"): each call still runs `jax.jit(_identity_fn, out_shardings=...)` afresh, once per leaf, but `_identity_fn` is one module-level function, and jit's caches are keyed on the function and its arguments, not on the wrapper object, so only the first call compiles (one program per leaf shape); later calls from the training loop compile nothing. A checker that reports every `jax.jit(...)` made inside a function that a loop runs, without telling a module-level function from a lambda, would flag it.
Transcribed: `_identity_fn`, `_handle_array_process_allgather` and the jax.Array route of `process_allgather` from jax/experimental/multihost_utils.py at the commit named (docstring cut; the GlobalDeviceArray route, taken only with `jax_array` off, is left out, as that flag is gone), with the 2022 APIs of today's JAX: `pjit(f, out_axis_resources=s)` is `jax.jit(f, out_shardings=s)`, `maps.Mesh` is `jax.sharding.Mesh`, `MeshPspecSharding` is `NamedSharding`, `array.make_array_from_single_device_arrays` is `jax.make_array_from_single_device_arrays`, `jax.tree_map` is `jax.tree_util.tree_map`, `with global_mesh:` is `with jax.set_mesh(global_mesh):`; the replicated `OpShardingSharding` over the input's devices is a `NamedSharding` with an empty `PartitionSpec` on a mesh of those devices, and the private `global_mesh._local_to_global(...)` shape is computed as the process count times the local leading dimension, what it returns for `P('processes')`. The driver gathers a dict of metrics at each of three evaluation steps (one process, the CPU device), with a backend-compile counter: compilations per call are 2, 0, 0.
"""
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

compiles = 0


def _count(event, duration, **kwargs):
  global compiles
  if event == "/jax/core/compile/backend_compile_duration":
    compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


# Identity function is at the top level so that `process_allgather` doesn't
# recompile on every invocation.
def _identity_fn(x):
  return x


def _handle_array_process_allgather(inp, tiled):
  if isinstance(inp, jax.Array) and not inp.is_fully_addressable:
    reps = NamedSharding(
        Mesh(np.array(inp.sharding._device_assignment), ('d',)), P())
    out = jax.jit(_identity_fn, out_shardings=reps)(inp)
  else:
    # All inputs here will be fully addressable.
    devices = np.array(jax.devices()).reshape(jax.process_count(),
                                              jax.local_device_count())
    global_mesh = Mesh(devices, ('processes', 'local_devices'))
    pspec = P('processes')
    s = NamedSharding(global_mesh, pspec)

    host_np_arr = np.asarray(inp)
    if host_np_arr.ndim == 0 or not tiled:
      host_np_arr = np.expand_dims(host_np_arr, axis=0)

    global_shape = ((jax.process_count() * host_np_arr.shape[0],)
                    + host_np_arr.shape[1:])

    bufs = [jax.device_put(host_np_arr, d) for d in jax.local_devices()]
    global_arr = jax.make_array_from_single_device_arrays(
        global_shape, s, bufs)
    with jax.set_mesh(global_mesh):
      out = jax.jit(_identity_fn, out_shardings=None)(global_arr)

  return np.asarray(out.addressable_data(0))


def process_allgather(in_tree, tiled: bool = False):
  def _pjit(inp):
    return _handle_array_process_allgather(inp, tiled)

  return jax.tree_util.tree_map(_pjit, in_tree)  # array route


per_step = []
for step in range(3):
  metrics = {"loss": np.float32(1.0 / (step + 1)), "accuracy": np.arange(4.0)}
  before = compiles
  gathered = process_allgather(metrics)
  per_step.append(compiles - before)
  print(step, gathered)
print("backend compilations per process_allgather call:", per_step)
