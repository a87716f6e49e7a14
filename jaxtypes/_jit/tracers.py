"""The function ``jax.jit`` traces for ``jaxtypes.jit``: one per function and settings.

``jax.jit`` keys its caches on the function it is given, so ``jax.jit(f)(x)`` written inside a
loop traces ``f`` once. ``jaxtypes.jit`` hands jax a tracer that checks and logs each trace
before calling ``f``; a new tracer for each ``jaxtypes.jit(f)`` would make jax trace again on
every pass. Tracers are therefore kept per function, and refer to it weakly, so that keeping
them never keeps a function (or what jax compiled for it) alive.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Hashable
from typing import Any

from jaxtypes._jit.agreement import AgreementCheck
from jaxtypes._jit.compile_log import CompileLog


class Tracer:
    """Called by jax with the arguments it traces: checks that processes agree, logs the trace,
    calls the function. jax reads the function's signature and source through it."""

    def __init__(
        self,
        fn: Callable[..., Any],
        signature: inspect.Signature,
        static: frozenset[str],
        warn_on_recompile: bool,
        check_static_agreement: bool | None,
    ) -> None:
        self._fn = _reference(fn)
        self.__signature__ = signature
        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            if hasattr(fn, name):
                setattr(self, name, getattr(fn, name))
        self.log = CompileLog(getattr(fn, "__qualname__", repr(fn)), signature, static, warn_on_recompile)
        self._agree = AgreementCheck(self, signature, static, check_static_agreement)

    @property
    def __wrapped__(self) -> Callable[..., Any] | None:
        return self._fn()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn()
        assert fn is not None, "a tracer outlived its function"
        self._agree(args, kwargs)
        self.log.record(args, kwargs)
        return fn(*args, **kwargs)


_TRACERS: weakref.WeakKeyDictionary[Callable[..., Any], dict[Hashable, Tracer]] = weakref.WeakKeyDictionary()


def tracer_for(
    fn: Callable[..., Any],
    signature: inspect.Signature,
    static: frozenset[str],
    warn_on_recompile: bool,
    check_static_agreement: bool | None,
    options: dict[str, Any],
) -> Tracer:
    """The tracer of ``fn`` for these static parameters, settings and ``jax.jit`` options: the
    one made before while ``fn`` lives, else a new one (kept when ``fn`` can be weakly keyed)."""
    key = (static, warn_on_recompile, check_static_agreement, tuple(sorted(options.items())))
    try:
        tracers = _TRACERS.setdefault(fn, {})
        return tracers[key]
    except TypeError:  # fn or an option cannot be weakly referenced or hashed: nothing is kept
        return Tracer(fn, signature, static, warn_on_recompile, check_static_agreement)
    except KeyError:
        tracer = tracers[key] = Tracer(fn, signature, static, warn_on_recompile, check_static_agreement)
        return tracer


def _reference(fn: Callable[..., Any]) -> Callable[[], Callable[..., Any] | None]:
    try:
        return weakref.ref(fn)
    except TypeError:
        return lambda: fn
