"""Source: https://github.com/google/flax/blob/9c19c13bb60279695f87733f357a0bff37bb9acc/flax/core/lift.py
Library: plain-jax
Correct: flax's lifted jit after "Add proper cache behavior for lift.jit" (PR 1275): `jitted` is defined and jitted once per `lift.jit(fn)`, outside `inner`, and the per-call scope_fn/repack_fn reach it through nonlocal variables, while a static `fingerprint` (the scopes' mutable filters made hashable by `_hashable_filter`: lists and sets become tuples) tells apart calls whose mutable collections differ. Applying a lifted function twice compiles once. A checker must stay silent on a jit made inside a factory function that runs once per decorated function, and on a static tuple built from filters at each call.
Transcribed: `_hashable_filter` and `jit` from flax/core/lift.py at 9c19c13b, unchanged but for the docstring of `jit`, which is shortened, and `jax.tree_leaves`, now `jax.tree_util.tree_leaves`. `pack`, `Scope` (holding variables and a `mutable` filter), `DenyList` (a frozen dataclass, as in flax/core/scope.py), `nn.dense` and `apply` are stand-ins, as in the bug case of the parent commit; the driver follows the PR's test and applies a lifted dense layer twice.
"""
import dataclasses
import functools
from typing import Any, Callable, Iterable, Union

import jax
import jax.numpy as jnp
import numpy as np

CollectionFilter = Any
PRNGSequenceFilter = Any


@dataclasses.dataclass(frozen=True)
class DenyList:  # as in flax/core/scope.py
  deny: Any


class Scope:  # stand-in for flax.core.scope.Scope
  def __init__(self, variables, mutable=False):
    self.variables = variables
    self.mutable = mutable


def pack(fn, in_variable_filters, out_variable_filters, rng_filters, name=None):  # stand-in
  def wrapper(scope, *args):
    variable_groups = (scope.variables,)
    rng_groups = ((),)

    def scope_fn(variable_groups, rng_groups):
      return Scope(variable_groups[0], scope.mutable)

    def repack_fn(inner_scope):
      return inner_scope.variables

    y, _ = fn(scope_fn, repack_fn, variable_groups, rng_groups, *args)
    return y
  return wrapper


def _hashable_filter(x):
  """Hashable version of CollectionFilter."""
  if isinstance(x, Iterable):
    return tuple(x)  # convert un-hashable list & sets to tuple
  if isinstance(x, DenyList):
    return DenyList(_hashable_filter(x))  # convert inner filter recursively
  return x

def jit(fn: Callable[..., Any],
        variables: CollectionFilter = True,
        rngs: PRNGSequenceFilter = True,
        static_argnums: Union[int, Iterable[int]] = (),
        donate_argnums: Union[int, Iterable[int]] = (),
        device=None,
        backend: Union[str, None] = None,
        ) -> Callable[..., Any]:
  """Lifted version of ``jax.jit``."""
  if not isinstance(static_argnums, Iterable):
    static_argnums = (static_argnums,)
  if not isinstance(donate_argnums, Iterable):
    donate_argnums = (donate_argnums,)
  # offset argnums by two because first argument in the original function is the scope
  # while jitted has 3 functions before the user arguments.
  static_argnums = (0,) + tuple(i + 2 for i in static_argnums if i > 0)
  donate_argnums = tuple(i + 2 for i in donate_argnums if i > 0)
  
  # Close over scope_fn & repack_fn to avoid recompilation
  # this is impure but we use the fingerprint arg to differentiate between cases
  # where scope_fn or repack_fn actually produce non-identical results.
  scope_fn, repack_fn = None, None
  @functools.partial(jax.jit,
                     static_argnums=static_argnums,
                     donate_argnums=donate_argnums,
                     device=device, backend=backend)
  @functools.wraps(fn)
  def jitted(fingerprint, variable_groups, rng_groups, *args):
    # fingerprint is only used to differentiate the cache signature for cases
    # where different collections are mutable.
    del fingerprint
    scope = scope_fn(variable_groups, rng_groups)  # pylint: disable=not-callable
    y = fn(scope, *args)
    return y, repack_fn(scope)  # pylint: disable=not-callable

  def inner(scope_fun, repack_fun, variable_groups, rng_groups, *args):
    nonlocal scope_fn, repack_fn
    try:
      scope_fn = scope_fun
      repack_fn = repack_fun
      scopes = jax.tree_util.tree_leaves(scope_fn(variable_groups, rng_groups))
      mutable = tuple(_hashable_filter(scope.mutable) for scope in scopes)
      return jitted(mutable, variable_groups, rng_groups, *args)
    finally:
      scope_fn, repack_fn = None, None

  return pack(inner, (variables,), (variables,), (rngs,), name='jit')


def dense(scope, x, features):  # stand-in for flax.core.nn.dense
  return x @ scope.variables['params']['kernel']


def apply(fn, mutable=False):  # stand-in for flax.core.apply
  def wrapper(variables, *args):
    return fn(Scope(variables, mutable), *args)
  return wrapper


compiles = 0
@jit
def f(scope, x):
  global compiles
  compiles += 1
  return dense(scope, x, 1)


x = np.ones((3, 2))
params = {'params': {'kernel': jnp.ones((2, 1))}}
for _ in range(2):
  apply(f)(params, x)
apply(f, mutable=['intermediates'])(params, x)
print("compiles:", compiles)  # 2: once for apply, once more only when the mutable collections change
