"""Source: https://github.com/jax-ml/jax/pull/17101
Library: plain-jax
Correct: `jnp.ufunc` jits its methods with `self` static ("jnp.ufunc: add __hash__ method and jit methods by default ... because bound methods are created with a new ID each time"). The class defines `__hash__` and `__eq__` over its defining values (function, name, identity, nin, nout, nargs), keeps them in a name-mangled dict behind read-only properties ("We want ufunc instances to work properly when marked as static, and for this reason it's important that their properties not be mutated"), and nothing assigns them after construction, so a static `self` cannot go stale and two equal ufuncs share compiled code. A checker that treats any plain class given as a static `self` as identity-hashed would flag it.
Transcribed: `ufunc` from jax/_src/numpy/ufunc_api.py at 003297eb97876313de6750c8f0828a61b3e7ee90 (the file PR 17101 changed, as it is today), cut to `__init__`, the properties, `__hash__`, `__eq__`, `__repr__`, `__call__`, `_call_vectorized`, `accumulate` with `_accumulate_via_scan`, and `outer`, with `frompyfunc`; `reduce`, `at`, `reduceat` and the docstrings are left out. JAX-internal names are replaced by public ones (`api.jit` -> `jax.jit`, `vectorize` -> `jnp.vectorize`, `control_flow.scan` -> `jax.lax.scan`, `_moveaxis` -> `jnp.moveaxis`, `_where` -> `jnp.where`, `lax.asarray` -> `jnp.asarray`, `lax._one(arr)` -> `jnp.ones((), arr.dtype)`, `canonicalize_axis` -> a modulo), and the `check_arraylike` calls and the `cast` around `self._call_vectorized` are dropped. The calls at the end (the docstring's `frompyfunc(operator.add, ...)` example, made twice) were added.
"""
from __future__ import annotations

from collections.abc import Callable
import operator
from typing import Any

import numpy as np

import jax
import jax.numpy as jnp
from jax import Array
from jax.typing import ArrayLike, DTypeLike


class ufunc:
  def __init__(self, func: Callable[..., Any], /,
               nin: int, nout: int, *,
               name: str | None = None,
               nargs: int | None = None,
               identity: Any = None,
               call: Callable[..., Any] | None = None,
               reduce: Callable[..., Any] | None = None,
               accumulate: Callable[..., Any] | None = None,
               at: Callable[..., Any] | None = None,
               reduceat: Callable[..., Any] | None = None,
               ):
    self.__doc__ = func.__doc__
    self.__name__ = name or func.__name__
    # We want ufunc instances to work properly when marked as static,
    # and for this reason it's important that their properties not be
    # mutated. We prevent this by storing them in a dunder attribute,
    # and accessing them via read-only properties.
    self.__static_props = {
      'func': func,
      'nin': operator.index(nin),
      'nout': operator.index(nout),
      'nargs': operator.index(nargs or nin),
      'identity': identity,
      'call': call,
      'reduce': reduce,
      'accumulate': accumulate,
      'at': at,
      'reduceat': reduceat,
    }

  _func = property(lambda self: self.__static_props['func'])
  nin = property(lambda self: self.__static_props['nin'])
  nout = property(lambda self: self.__static_props['nout'])
  nargs = property(lambda self: self.__static_props['nargs'])
  identity = property(lambda self: self.__static_props['identity'])

  def __hash__(self) -> int:
    # In both __hash__ and __eq__, we do not consider call, reduce, etc.
    # because they are considered implementation details rather than
    # necessary parts of object identity.
    return hash((self._func, self.__name__, self.identity,
                 self.nin, self.nout, self.nargs))

  def __eq__(self, other: Any) -> bool:
    return isinstance(other, ufunc) and (
      (self._func, self.__name__, self.identity, self.nin, self.nout, self.nargs) ==
      (other._func, other.__name__, other.identity, other.nin, other.nout, other.nargs))

  def __repr__(self) -> str:
    return f"<jnp.ufunc '{self.__name__}'>"

  def __call__(self, *args: ArrayLike, out: None = None, where: None = None) -> Any:
    if out is not None:
      raise NotImplementedError(f"out argument of {self}")
    if where is not None:
      raise NotImplementedError(f"where argument of {self}")
    call = self.__static_props['call'] or self._call_vectorized
    return call(*args)

  @jax.jit(static_argnames=['self'])
  def _call_vectorized(self, *args):
    return jnp.vectorize(self._func)(*args)

  @jax.jit(static_argnames=['self', 'axis', 'dtype'])
  def accumulate(self, a: ArrayLike, axis: int = 0, dtype: DTypeLike | None = None,
                 out: None = None) -> Array:
    if self.nin != 2:
      raise ValueError("accumulate only supported for binary ufuncs")
    if self.nout != 1:
      raise ValueError("accumulate only supported for functions returning a single value")
    if out is not None:
      raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
    accumulate = self.__static_props['accumulate'] or self._accumulate_via_scan
    return accumulate(a, axis=axis, dtype=dtype)

  def _accumulate_via_scan(self, arr: ArrayLike, axis: int = 0,
                           dtype: DTypeLike | None = None) -> Array:
    assert self.nin == 2 and self.nout == 1
    arr = jnp.asarray(arr)

    if dtype is None:
      dtype = jax.eval_shape(self._func, jnp.ones((), arr.dtype), jnp.ones((), arr.dtype)).dtype

    if axis is None or isinstance(axis, tuple):
      raise ValueError("accumulate does not allow multiple axes")
    axis = axis % np.ndim(arr)

    if arr.size == 0:
      return jnp.full(arr.shape, 0, dtype)
    arr = jnp.moveaxis(arr, axis, 0)
    def scan_fun(carry, _):
      i, x = carry
      y = jnp.where(i == 0, arr[0].astype(dtype), self(x.astype(dtype), arr[i].astype(dtype)))
      return (i + 1, y), y
    _, result = jax.lax.scan(scan_fun, (0, arr[0].astype(dtype)), None, length=arr.shape[0])
    return jnp.moveaxis(result, 0, axis)

  @jax.jit(static_argnums=[0])
  def outer(self, A: ArrayLike, B: ArrayLike, /) -> Array:
    if self.nin != 2:
      raise ValueError("outer only supported for binary ufuncs")
    if self.nout != 1:
      raise ValueError("outer only supported for functions returning a single value")
    _ravel = lambda A: jnp.reshape(A, (np.size(A),))
    result = jax.vmap(jax.vmap(self, (None, 0)), (0, None))(_ravel(A), _ravel(B))
    return result.reshape(*np.shape(A), *np.shape(B))


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int,
               *, identity: Any = None) -> ufunc:
  return ufunc(func, nin, nout, identity=identity)


add = frompyfunc(operator.add, nin=2, nout=1, identity=0)
x = jnp.arange(4)
print(add(x, 10))
print(add.outer(x, x))
print(add.accumulate(x))

add_again = frompyfunc(operator.add, nin=2, nout=1, identity=0)
print(add_again == add, add_again.accumulate(x))
print("accumulate compiled", ufunc.accumulate._cache_size(), "time(s) for two equal ufuncs")
