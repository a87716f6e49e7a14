"""Guarding hooks: an exception in the plugin becomes a mypy error, never a crash."""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import TypeVar

from jaxtypes._vocabulary.internal_errors import INTERNAL_ERROR

C = TypeVar("C")
R = TypeVar("R")


def guarded(hook: Callable[[C], R], fallback: R | Callable[[C], R]) -> Callable[[C], R]:
    """``hook``, reporting any exception at the hook's context and returning ``fallback``.

    ``fallback`` is a value (``True`` for class hooks: "done") or a function of the context
    (the default return type for call hooks).
    """

    @functools.wraps(hook)
    def run(ctx: C) -> R:
        try:
            return hook(ctx)
        except Exception as error:  # an internal error must not stop mypy
            context = getattr(ctx, "context", None) or getattr(ctx, "cls", None)
            where = traceback.extract_tb(error.__traceback__)[-1]
            message = (
                f"{INTERNAL_ERROR} {type(error).__name__}: {error} ({where.filename}:{where.lineno}); please report it"
            )
            ctx.api.fail(message, context)  # type: ignore[attr-defined]
            return fallback(ctx) if callable(fallback) else fallback

    return run
