"""Source: https://github.com/google/flax/pull/1275
Library: plain-jax
Reported: "Add proper cache behavior for lift.jit": "Fixes cache misses in lift.jit". flax's lifted jit defined and jitted a new local function `jitted` inside `inner` on every call of the lifted function (closing over that call's `scope_fn` and `repack_fn`), so jax.jit, which caches on the function object, never found the code compiled by the previous call; the test the PR adds asserts that applying a lifted function twice compiles once.
Transcribed: `jit` from flax/core/lift.py at the parent of the fix commit (9c19c13b^), unchanged but for its docstring, which is shortened. `pack` (about 150 lines that split the scope into variable and rng groups) is a stand-in that calls `inner` with a scope_fn rebuilding a one-collection scope and a repack_fn returning its variables, `Scope` is a stand-in holding a variable dict, `nn.dense` is a matrix product, and `apply` calls the function on a scope of the given variables. The driver follows the PR's test: a lifted dense layer with a compile counter, applied twice.
Hard: the jitted function is defined inside `inner`, the function `pack` returns, which runs on every call of the lifted function; the driver's loop reaches it through apply's wrapper and pack's wrapper.
"""
import functools
from typing import Any, Callable, Iterable, Union

import jax
import jax.numpy as jnp
import numpy as np

CollectionFilter = Any
PRNGSequenceFilter = Any


class Scope:  # stand-in for flax.core.scope.Scope
    def __init__(self, variables):
        self.variables = variables


def pack(fn, in_variable_filters, out_variable_filters, rng_filters, name=None):  # stand-in
    def wrapper(scope, *args):
        variable_groups = (scope.variables,)
        rng_groups = ((),)

        def scope_fn(variable_groups, rng_groups):
            return Scope(variable_groups[0])

        def repack_fn(inner_scope):
            return inner_scope.variables

        y, _ = fn(scope_fn, repack_fn, variable_groups, rng_groups, *args)
        return y
    return wrapper


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
  # offset argnums by one because first argument is the scope.
  static_argnums = tuple(i + 1 for i in static_argnums if i > 0)
  donate_argnums = tuple(i + 1 for i in donate_argnums if i > 0)
  def inner(scope_fn, repack_fn, variable_groups, rng_groups, *args):
    @functools.partial(jax.jit,  # expect: jit-fresh-function
                       static_argnums=static_argnums,
                       donate_argnums=donate_argnums,
                       device=device, backend=backend)
    @functools.wraps(fn)
    def jitted(variable_groups, rng_groups, *args):
      scope = scope_fn(variable_groups, rng_groups)
      y = fn(scope, *args)
      return y, repack_fn(scope)

    return jitted(variable_groups, rng_groups, *args)

  return pack(inner, (variables,), (variables,), (rngs,), name='jit')


def dense(scope, x, features):  # stand-in for flax.core.nn.dense
    return x @ scope.variables['params']['kernel']


def apply(fn):  # stand-in for flax.core.apply
    def wrapper(variables, *args):
        return fn(Scope(variables), *args)
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
print("compiles:", compiles)  # 2: the PR's test expects applying again not to compile
