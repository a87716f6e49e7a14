"""Source: https://github.com/google/flax/blob/a5c76831927b8439118d79f82a052edaea637811/flax/core/meta.py
Library: flax
Correct: Partitioned is a flax struct.PyTreeNode whose names field, a tuple of logical axis names (strings or None), and mesh field are declared struct.field(pytree_node=False): they go into the tree structure, hashable and compared by value, and only value (the kernel array) is a leaf. The variables that init returns, a dict with string keys ('params', 'Dense_0', 'kernel', ...) holding Partitioned boxes and plain bias arrays, are therefore a valid traced argument of the jitted apply; flax unboxes them when the module reads its parameters, and with no mesh defined unbox applies no sharding constraint.
Transcribed: Partitioned (its docstring and to_nnx_metadata/from_nnx_metadata cut) and with_partitioning copied from the file, with AxisMetadata, global_mesh_defined and PARTITION_NAME imported from flax.core.meta and errors from flax; the MLP and its init/apply follow the Partitioned docstring's example, with pjit under a mesh replaced by jax.jit (no mesh), hidden_size 4096 by 64 and the (8 * 1024, 1024) input by a (16, 32) one; the partition specs are read with jax.tree_util.tree_map in place of nn.get_partition_spec.
"""
import functools
from typing import Any, TypeVar
from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax import random
from flax import errors, struct
import flax.linen as nn
from flax.core.meta import AxisMetadata, PARTITION_NAME, global_mesh_defined
from flax.typing import LogicalNames

A = TypeVar('A')
B = TypeVar('B')


class Partitioned(struct.PyTreeNode, AxisMetadata[A]):
  """Wrapper for partitioning metadata."""

  value: Any
  names: LogicalNames = struct.field(pytree_node=False)
  mesh: jax.sharding.Mesh | None = struct.field(
      default=None, pytree_node=False
  )

  def unbox(self, apply_constraint=True) -> A:
    """Returns the wrapped value with the partitioning applied as a sharding constraint."""
    if apply_constraint and (global_mesh_defined() or self.mesh is not None):
      axis_resource = self.get_partition_spec()
      if self.mesh is not None:
        sharding = jax.sharding.NamedSharding(self.mesh, axis_resource)
        return jax.lax.with_sharding_constraint(self.value, sharding)
      return jax.lax.with_sharding_constraint(self.value, axis_resource)
    else:
      return self.value

  def replace_boxed(self, val: B) -> 'Partitioned[B]':
    return self.replace(value=val)  # type: ignore

  def _get_partition_name(self, params: dict[Any, Any]) -> str:
    if PARTITION_NAME not in params:
      raise errors.PartitioningUnspecifiedError(self)
    return params[PARTITION_NAME]

  def add_axis(self, index: int, params: dict[Any, Any]) -> 'Partitioned[A]':
    axis_name = self._get_partition_name(params)
    names = list(self.names)
    while len(names) < index:
      names.append(None)  # type: ignore
    names.insert(index, axis_name)  # type: ignore
    return self.replace(names=tuple(names))

  def remove_axis(self, index: int, params: dict[Any, Any]) -> 'Partitioned[A]':
    axis_name = self._get_partition_name(params)
    names = list(self.names)
    assert names.pop(index) == axis_name
    return self.replace(names=tuple(names))

  def get_partition_spec(self) -> jax.sharding.PartitionSpec:
    """Returns the ``Partitionspec`` for this partitioned value."""
    return jax.sharding.PartitionSpec(*self.names)

  def get_sharding(self, mesh: jax.sharding.Mesh) -> jax.sharding.Sharding:
    """Returns the ``NamedSharding`` for this partitioned value."""
    return jax.sharding.NamedSharding(mesh, self.get_partition_spec())


def with_partitioning(
    fn: Callable[..., Any],
    names: LogicalNames,
    mesh: jax.sharding.Mesh | None = None,
) -> Callable[..., Partitioned[Any]]:
  """Wraps a function's return value with Partitioned."""

  @functools.wraps(fn)
  def wrapper(*args, **kwargs):
    return Partitioned(fn(*args, **kwargs), names, mesh=mesh)

  return wrapper


class MLP(nn.Module):
  hidden_size: int
  @nn.compact
  def __call__(self, x):
    ki = nn.linear.default_kernel_init
    h = nn.Dense(
        self.hidden_size,
        kernel_init=with_partitioning(ki, ('data', 'model')))(x)
    h = nn.relu(h)
    return nn.Dense(
        x.shape[-1],
        kernel_init=with_partitioning(ki, ('model', 'data')))(h)
mlp = MLP(64)
x = jnp.ones((16, 32))
# use eval_shape to get the Partitioned instances for the variables.
var_spec = jax.tree_util.tree_map(
    lambda v: v.get_partition_spec() if isinstance(v, Partitioned) else None,
    jax.eval_shape(mlp.init, random.key(0), x),
    is_leaf=lambda v: isinstance(v, Partitioned))
print(var_spec)
init_fn = jax.jit(mlp.init)
variables = init_fn(random.key(0), x)
print(type(variables['params']['Dense_0']['kernel']).__name__,
      variables['params']['Dense_0']['kernel'].names)
apply_fn = jax.jit(mlp.apply)
print(apply_fn(variables, x).shape)
print(apply_fn(variables, 2 * x).shape)
