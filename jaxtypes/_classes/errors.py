"""The exceptions jaxtypes raises: each a ``TypeError`` carrying a rule's code and words."""

from __future__ import annotations

import inspect

from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import Message


class JaxtypesError(TypeError):
    """A value, class or jitted function breaks one of jaxtypes' rules.

    ``code`` is the rule's stable code (the same the mypy plugin reports); ``where`` names the
    class, field path or parameter; ``message`` holds the headline (what is wrong, where), why it
    matters for jit and the fix, which the exception's text gives in that order, ending with the
    definition's ``file:line`` where that is known.
    """

    def __init__(self, problem: Problem, where: str, *, defined_at: object = None) -> None:
        self.rule = problem.rule
        self.code = problem.rule.code
        self.where = where
        self.message = problem.message(where)
        location = source_location(defined_at) if defined_at is not None else None
        super().__init__(self.message.text() + (f"\n  {DEFINED_AT}{location}" if location else ""))


DEFINED_AT = "defined at: "


class StaticValueError(JaxtypesError):
    """A value stored in a static position (static field, ``Static`` argument) is not static-safe."""


class StaticClassError(JaxtypesError):
    """A class declared static (or used as ``Static[T]``) cannot be hashed by value safely."""


class MarkerError(JaxtypesError):
    """``Static[...]`` or ``Dynamic[...]`` is used where it has no meaning."""


class JitDefinitionError(JaxtypesError):
    """A function given to ``jaxtypes.jit`` has a parameter jit cannot handle correctly."""


class StaticAgreementError(JaxtypesError):
    """The processes of a multi-process job compiled a jitted function for different static
    arguments, or not all of them compiled it (``check_static_agreement``)."""


class DeviceNotFoundError(JaxtypesError, ValueError):
    """The device asked of ``jaxtypes.jit`` does not exist in this process."""


class RecompileWarning(UserWarning):
    """A ``jaxtypes.jit`` function compiled again for a static argument equal to one it had
    compiled for (``jit-recompile``; ``jit(warn_on_recompile=True)`` turns these on)."""


class StaleResultError(RuntimeError):
    """Under ``jaxtypes.sanitize(strict=True)``: a jitted call reused code compiled for values
    that have changed since (``jit-stale-static``, ``jit-stale-global``); raised instead of
    returning its stale result. ``code`` and ``message`` as for ``JaxtypesError``."""

    def __init__(self, message: Message, called_at: str) -> None:
        self.code = message.code
        self.message = message
        super().__init__(f"{message.text()}\n  at: {called_at}")


for _public in (
    JaxtypesError,
    StaticValueError,
    StaticClassError,
    MarkerError,
    JitDefinitionError,
    StaticAgreementError,
    DeviceNotFoundError,
    RecompileWarning,
    StaleResultError,
):
    _public.__module__ = "jaxtypes"  # tracebacks name them as users import them: jaxtypes.StaticValueError


def source_location(obj: object) -> str | None:
    """``file:line`` of a class or function definition, or None where Python does not know it."""
    try:
        target = inspect.unwrap(obj) if callable(obj) else obj
        path = inspect.getsourcefile(target)  # type: ignore[arg-type]
        _, line = inspect.getsourcelines(target)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return None
    return f"{path}:{line}" if path else None


def class_name(cls: type) -> str:
    """The name a user wrote for ``cls``: its qualified name without enclosing functions."""
    return cls.__qualname__.rpartition("<locals>.")[2]
