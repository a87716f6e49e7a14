# Opt-in overlay of the top level of jax for pyright and Pylance (`stubPath`): `jax.jit` keeps
# the signature of the function it wraps, so the arguments and result of a plainly jitted call are
# checked (jax types the result as JitWrapped, whose __call__ takes anything and returns Any).
# Only this file shadows jax: submodules (`import jax.numpy as jnp`, jax._src, ...) stay jax's
# own, and top-level names not declared here are Any (`__getattr__`).
# Not for mypy: the jaxtypes plugin recognises jax's own jit by its full name. See docs/editors.md.

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Concatenate, Protocol, TypeVar, overload

from typing_extensions import ParamSpec, TypedDict, Unpack

from jax._src.api import block_until_ready as block_until_ready
from jax._src.api import device_get as device_get
from jax._src.api import device_put as device_put
from jax._src.api import eval_shape as eval_shape
from jax._src.api import grad as grad
from jax._src.api import jvp as jvp
from jax._src.api import make_jaxpr as make_jaxpr
from jax._src.api import value_and_grad as value_and_grad
from jax._src.api import vjp as vjp
from jax._src.api import vmap as vmap
from jax._src.basearray import Array as Array
from jax._src.stages import Lowered, Traced
from jax._src.xla_bridge import default_backend as default_backend
from jax._src.xla_bridge import device_count as device_count
from jax._src.xla_bridge import devices as devices
from jax._src.xla_bridge import local_devices as local_devices

_P = ParamSpec("_P")
_Q = ParamSpec("_Q")
_R = TypeVar("_R", covariant=True)
_S = TypeVar("_S")

class _TypedJit(Protocol[_P, _R]):
    """What `jax.jit` returns, with the wrapped function's parameters and result."""

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    @overload
    def __get__(self, instance: None, owner: type | None = None, /) -> _TypedJit[_P, _R]: ...
    @overload
    def __get__(
        self: _TypedJit[Concatenate[_S, _Q], _R], instance: _S, owner: type | None = None, /
    ) -> _TypedJit[_Q, _R]: ...
    def lower(self, *args: _P.args, **kwargs: _P.kwargs) -> Lowered: ...
    def trace(self, *args: _P.args, **kwargs: _P.kwargs) -> Traced: ...
    def eval_shape(self, *args: _P.args, **kwargs: _P.kwargs) -> Any: ...
    def clear_cache(self) -> None: ...

class _JitOptions(TypedDict, total=False):
    """jax.jit's keyword arguments."""

    in_shardings: Any
    out_shardings: Any
    static_argnums: int | Sequence[int] | None
    static_argnames: str | Iterable[str] | None
    donate_argnums: int | Sequence[int] | None
    donate_argnames: str | Iterable[str] | None
    keep_unused: bool
    device: Any
    backend: str | None
    inline: bool
    compiler_options: dict[str, Any] | None

@overload
def jit(fun: Callable[_P, _R], /, **options: Unpack[_JitOptions]) -> _TypedJit[_P, _R]: ...
@overload
def jit(**options: Unpack[_JitOptions]) -> Callable[[Callable[_P, _R]], _TypedJit[_P, _R]]: ...
def __getattr__(name: str) -> Any: ...
