"""``jaxtypes.jit``: ``jax.jit`` whose static arguments come from annotations, checked once.

A parameter is static when it is annotated ``Static[T]`` or typed as a static dataclass;
positional-only ones become ``static_argnums``, the others ``static_argnames``. Everything jit
would get wrong silently or report obscurely (an identity-hashed static type, a plain class
as an argument, a jitted method of a plain class, a bound method of a mutable object, an
absent device) is refused when the function is decorated or its class created, never per
call. The result is jax's own jitted function with ``compiles`` (see ``compile_log``) attached,
so a call costs exactly what a ``jax.jit`` call costs.

Methods: a function jitted inside a class body is held by a descriptor until the class is
complete; its first access decides how ``self`` is passed (static for a static dataclass, a
pytree for a pytree dataclass) and replaces the descriptor on the class with the jitted
function. A class that plainly is neither (it writes its own ``__init__`` and declares no
fields) is refused when it is created.
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, Generic, NamedTuple, ParamSpec, Protocol, TypeVar, overload

import jax

from jaxtypes._classes.declared_types import check_static_field_type, forward_refs, resolve_hint
from jaxtypes._classes.errors import JitDefinitionError, MarkerError, class_name
from jaxtypes._classes.markers import read_marker
from jaxtypes._classes.static_values import ProblemFound, is_array, is_pytree_class, is_static_class
from jaxtypes._jit.compile_log import CompileLog
from jaxtypes._jit.devices import DeviceSpec, resolve_device
from jaxtypes._jit.traced_types import check_traced_type
from jaxtypes._jit.tracers import tracer_for
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.positions import is_static
from jaxtypes._vocabulary.rules import JIT_UNRESOLVED_ANNOTATION

if TYPE_CHECKING:
    from jax.stages import Lowered, Traced

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")
S = TypeVar("S")

_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


class Jitted(Protocol[P, R]):
    """A function jitted by ``jaxtypes.jit``: the wrapped signature, jax's stages, the compile log.

    Used as a method it binds like a function, so ``obj.method(x)`` drops ``self``.
    """

    __wrapped__: Callable[P, R]
    compiles: CompileLog

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @overload
    def __get__(self, instance: None, owner: type | None = None, /) -> Jitted[P, R]: ...
    @overload
    def __get__(self: Jitted[Concatenate[S, Q], R], instance: S, owner: type | None = None, /) -> Jitted[Q, R]: ...

    def lower(self, *args: P.args, **kwargs: P.kwargs) -> Lowered: ...
    def trace(self, *args: P.args, **kwargs: P.kwargs) -> Traced: ...
    def eval_shape(self, *args: P.args, **kwargs: P.kwargs) -> Any: ...
    def clear_cache(self) -> None: ...


@overload
def jit(
    fn: Callable[P, R],
    /,
    *,
    device: DeviceSpec | None = None,
    warn_on_recompile: bool = False,
    check_static_agreement: bool | None = None,
    **options: Any,
) -> Jitted[P, R]: ...
@overload
def jit(
    *,
    device: DeviceSpec | None = None,
    warn_on_recompile: bool = False,
    check_static_agreement: bool | None = None,
    **options: Any,
) -> Callable[[Callable[P, R]], Jitted[P, R]]: ...
def jit(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    device: DeviceSpec | None = None,
    warn_on_recompile: bool = False,
    check_static_agreement: bool | None = None,
    **options: Any,
) -> Any:
    """``jax.jit`` with static arguments read from the annotations of ``fn``.

    ``device`` (a ``jax.Device``, a platform name or a ``Sharding``) is where the computation
    runs and its outputs live; ``warn_on_recompile`` warns (``RecompileWarning``) when a static
    argument equal to an earlier one is compiled for again; ``check_static_agreement`` checks, on
    each compile, that every process of a multi-process job compiles for the same static arguments
    (None: as ``jaxtypes.check_static_agreement`` set it for the whole process); every other option
    (``donate_argnames``, ``static_argnames``, ``inline``, ...) goes to ``jax.jit`` unchanged.
    """
    if fn is None:
        return functools.partial(
            jit,
            device=device,
            warn_on_recompile=warn_on_recompile,
            check_static_agreement=check_static_agreement,
            **options,
        )
    if isinstance(fn, types.MethodType):
        _check_bound_method(fn)
    if device is not None:
        if "in_shardings" in options or "out_shardings" in options:
            raise TypeError("jaxtypes.jit: give either device= or in_shardings/out_shardings, not both")
        sharding = resolve_device(device, defined_at=fn)
        options = {**options, "in_shardings": sharding, "out_shardings": sharding}
    spec = _Spec(fn, options, warn_on_recompile, check_static_agreement, _caller_locals(fn))
    in_class = _defined_in_class_body(fn)
    plan = _plan(spec, skip_self=in_class, final=False)
    return _PendingJit(spec) if in_class or plan is None else _build(spec, plan)


class _Spec(NamedTuple):
    """What ``jit`` was given: the function and the options for ``jax.jit``."""

    fn: Callable[..., Any]
    options: dict[str, Any]
    warn_on_recompile: bool
    check_static_agreement: bool | None
    localns: dict[str, Any]


class _Plan(NamedTuple):
    """The names of the parameters that are static."""

    static: tuple[str, ...]


class _PendingJit(Generic[P, R]):
    """A jitted function not built yet: a method waiting for its class, or a function whose
    annotations name something not defined yet (resolved at first call).

    A method replaces itself on its class at first access, so only functions with forward
    references pay one extra Python call per call.
    """

    def __init__(self, spec: _Spec) -> None:
        self._spec = spec
        self._owner: type | None = None
        self._name = ""
        self._jitted: Any = None
        functools.update_wrapper(self, spec.fn)

    def __set_name__(self, owner: type, name: str) -> None:
        self._owner, self._name = owner, name
        if "__init__" in owner.__dict__ and not owner.__dict__.get("__annotations__"):
            raise _method_self_error(owner, self._spec.fn)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return self._resolve().__get__(instance, owner)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._resolve()(*args, **kwargs)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._resolve(), name)

    def _resolve(self) -> Any:
        if self._jitted is None:
            owner = self._owner
            spec = self._spec
            if owner is not None:
                spec = spec._replace(localns={**spec.localns, owner.__name__: owner})
            plan = _plan(spec, skip_self=owner is not None, final=True)
            assert plan is not None
            if owner is not None and _self_is_static(owner, self._spec.fn):
                plan = _Plan((next(iter(inspect.signature(self._spec.fn).parameters)), *plan.static))
            self._jitted = _build(self._spec, plan)
            if owner is not None:
                setattr(owner, self._name, self._jitted)
        return self._jitted


def _build(spec: _Spec, plan: _Plan) -> Any:
    """jax's jitted function of the tracer of ``fn`` (see ``tracers``), with ``compiles`` attached."""
    fn = spec.fn
    options = dict(spec.options)
    signature = inspect.signature(fn)
    argnums, argnames = static_args(
        signature,
        names={*plan.static, *as_tuple(options.pop("static_argnames", ()))},
        indices=set(as_tuple(options.pop("static_argnums", ()))),
    )
    params = list(signature.parameters)
    static = frozenset((*argnames, *(params[i] for i in argnums if i < len(params))))
    tracer = tracer_for(fn, signature, static, spec.warn_on_recompile, spec.check_static_agreement, options)
    jitted: Any = jax.jit(tracer, static_argnums=argnums, static_argnames=argnames, **options)
    jitted.__wrapped__ = fn
    jitted.compiles = tracer.log
    return jitted


def _plan(spec: _Spec, skip_self: bool, final: bool) -> _Plan | None:
    """Read and check every parameter's annotation; None while a name is not defined yet.

    ``skip_self`` leaves out a method's ``self``, which its class decides about. With ``final``
    an undefined name is an error instead.
    """
    fn = spec.fn
    parameters = list(inspect.signature(fn).parameters.values())[int(skip_self) :]
    static: list[str] = []
    globalns = getattr(inspect.unwrap(fn), "__globals__", {})
    qualname = getattr(fn, "__qualname__", repr(fn))
    unresolved = []
    for param in parameters:
        if param.annotation is inspect.Parameter.empty:
            continue
        where = phrases.parameter(param.name, qualname)
        hint = resolve_hint(param.annotation, globalns, spec.localns)
        missing = forward_refs(hint)
        if missing:
            unresolved.append((where, param.annotation, missing))
        elif _is_static_parameter(param, hint, where, fn):
            static.append(param.name)
    if unresolved and not final:
        return None
    if unresolved:
        where, annotation, missing = unresolved[0]
        what = f"is annotated {annotation!r}, and {', '.join(missing)} is not defined in module {fn.__module__}"
        raise JitDefinitionError(Problem(JIT_UNRESOLVED_ANNOTATION, what), where, defined_at=fn)
    return _Plan(tuple(static))


def static_args(
    signature: inspect.Signature, names: set[str], indices: set[int]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``static_argnums`` and ``static_argnames`` for ``jax.jit``, each complete: a parameter
    that can be passed both ways is listed in both, as jax itself infers when given one."""
    argnums = set(indices)
    argnames = set(names)
    for index, (name, param) in enumerate(signature.parameters.items()):
        if name not in names and index not in indices:
            continue
        if param.kind is inspect.Parameter.POSITIONAL_ONLY:
            argnums.add(index)
            argnames.discard(name)
        elif param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            argnums.add(index)
            argnames.add(name)
        elif param.kind is inspect.Parameter.KEYWORD_ONLY:
            argnames.add(name)
    return tuple(sorted(argnums)), tuple(sorted(argnames))


def _is_static_parameter(param: inspect.Parameter, hint: Any, where: str, fn: object) -> bool:
    """Whether a parameter is static; raises if jit cannot take it the way it is annotated."""
    kind, inner = read_marker(hint, where, fn)
    static = is_static(kind, static_class_type=isinstance(inner, type) and is_static_class(inner))
    if static and param.kind in _VARIADIC:
        stars = "*" if param.kind is inspect.Parameter.VAR_POSITIONAL else "**"
        raise MarkerError(phrases.static_variadic(stars, param.name), where, defined_at=fn)
    if kind == "static":
        check_static_field_type(where, inner, defined_at=fn)
    elif not static:
        try:
            check_traced_type(inner)
        except ProblemFound as found:
            raise found.as_error(JitDefinitionError, where, defined_at=fn) from None
    return static


def _self_is_static(owner: type, fn: object) -> bool:
    """``self`` is an unmarked parameter typed as its class: static for a static class, traced for
    a pytree class (``is_static``); any other class is refused."""
    if not (is_static_class(owner) or is_pytree_class(owner)):
        raise _method_self_error(owner, fn)
    return is_static(None, static_class_type=is_static_class(owner))


def _method_self_error(owner: type, fn: object) -> JitDefinitionError:
    name = class_name(owner)
    return JitDefinitionError(phrases.plain_class_self(name), f"{name}.{getattr(fn, '__name__', '?')}", defined_at=fn)


def _check_bound_method(method: types.MethodType) -> None:
    """Refuse ``jit(obj.method)`` unless ``obj`` cannot change after jit compiled for it."""
    owner = method.__self__
    cls = type(owner)
    if isinstance(owner, type) or is_static_class(cls) or is_pytree_class(cls) or is_array(owner):
        return
    where = phrases.jitted_bound_method("jaxtypes.jit", class_name(cls), method.__name__)
    raise JitDefinitionError(phrases.jitted_mutable_object(class_name(cls)), where, defined_at=method)


def _caller_locals(fn: object) -> dict[str, Any]:
    """The names local to the code that called ``jit``, for annotations of a nested function.

    ``typing.get_type_hints`` cannot see them; a function defined inside a function (a test,
    a factory) naturally names classes defined next to it.
    """
    if "<locals>" not in getattr(fn, "__qualname__", ""):
        return {}
    return dict(sys._getframe(2).f_locals)


def _defined_in_class_body(fn: object) -> bool:
    """Whether ``fn`` is a function defined directly in a class body (``Class.method``)."""
    if not isinstance(fn, types.FunctionType):
        return False
    parts = fn.__qualname__.split(".")
    return len(parts) > 1 and parts[-2] != "<locals>"


def as_tuple(value: Any) -> tuple[Any, ...]:
    """``static_argnums``/``static_argnames`` as a tuple, however given: one, several, or None
    (as flax's ``nnx.jit`` passes them)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, (int, str)) else tuple(value)
