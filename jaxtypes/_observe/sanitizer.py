"""The jit sanitizer: every ``jax.jit`` made while it is on is watched as it runs.

``jaxtypes.sanitize()`` (a context manager and a decorator), ``jaxtypes run`` and the pytest
plugin all come here. While any of them is on, ``jax.jit`` is replaced by a function that jits as
jax does and hands back a ``watched_jit.Watched``; libraries that call ``jax.jit`` when they jit
(equinox's ``filter_jit``, flax's ``nnx.jit``) and ``jaxtypes.jit`` are watched the same way. A
function jitted while no sanitizer was on is never seen; a watched function called while none is
on goes straight to jax. When the last one stops, ``jax.jit`` is jax's own again.

What is found goes to every sanitizer that is on (a test's inside a whole run's), each keeping
its own findings, compile counts and budgets.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import types
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from jaxtypes._classes.errors import StaleResultError
from jaxtypes._jit.compile_log import Compile, same_call, same_form, value_form
from jaxtypes._observe.call_sites import Place, definition_place, jit_place, user_place
from jaxtypes._observe.reads import python_function, unwrapped
from jaxtypes._observe.watched_jit import Watched
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.rules import Message

Budget = int | Mapping[str, int] | None
"""``max_compiles``: one number for every jitted function, or numbers by function name."""


class Finding(NamedTuple):
    """One thing the sanitizer saw: the message; the user's line whose call (or ``jax.jit``) it
    was; the other places it concerns (``("jitted at", place)``); further lines (a budget's
    compiles and their reasons)."""

    message: Message
    place: Place
    related: tuple[tuple[str, Place], ...]
    notes: tuple[str, ...] = ()

    @property
    def code(self) -> str:
        return self.message.code

    def __str__(self) -> str:
        lines = [f"{self.place}: {self.message.text()}", *(f"  {label}: {where}" for label, where in self.related)]
        return "\n".join([*lines, *self.notes])


@dataclasses.dataclass
class _Tally:
    """The function objects of one definition jitted at one line: the first compile of each
    distinct value (``compile_log.value_form`` of the function and the globals it read, at that
    compile), and how many compiled what an equal one had compiled before (plus the first)."""

    name: str
    count: int = 1
    compiles: list[tuple[Any, Compile]] = dataclasses.field(default_factory=list)


class Report:
    """What one sanitizer found, in order, each finding once per place; ``compiles`` counts the
    compiles of each jitted function (by name) while it was on."""

    def __init__(self) -> None:
        self._findings: dict[tuple[str, Place, tuple[tuple[str, Place], ...], str], Finding] = {}
        self._fresh: dict[tuple[types.CodeType, Place], _Tally] = {}
        self.compiles: dict[str, int] = {}
        self.files: set[str] = set()
        """The files of the user's code where the functions that compiled were jitted."""

    @property
    def findings(self) -> list[Finding]:
        fresh = [
            Finding(
                phrases.fresh_function(tally.name, tally.count), jitted_at, (("defined at", definition_place(code)),)
            )
            for (code, jitted_at), tally in self._fresh.items()
            if tally.count > 1
        ]
        return [*self._findings.values(), *fresh]

    def add(self, finding: Finding) -> None:
        self._findings.setdefault((finding.code, finding.place, finding.related, finding.message.headline), finding)

    def first_compile(self, watched: Watched, compiled: Compile) -> None:
        """Count a new function object's first compile against the earlier ones of its definition,
        made at the same line, that are equal to it in value and compiled for the same arguments
        (``jit-fresh-function``): one jitted function would have reused that code."""
        function = python_function(unwrapped(watched.fun))
        if function is None:
            return
        tally = self._fresh.setdefault((function.__code__, watched.jitted_at), _Tally(watched.name))
        # The globals its code reads are compiled in as well: a function reading a global that
        # changed between two compiles made a program of its own.
        form = value_form((watched.fun, watched.read_values()))
        if any(same_form(earlier, form) and same_call(call, compiled) for earlier, call in tally.compiles):
            tally.count += 1
        else:
            tally.compiles.append((form, compiled))

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def __repr__(self) -> str:
        return f"<jaxtypes sanitizer report: {len(self)} finding(s)>"


class Sanitizer:
    """One sanitizer that is on: its report, strictness and compile budgets."""

    def __init__(self, *, strict: bool, max_compiles: Budget) -> None:
        self.strict = strict
        self.max_compiles = max_compiles
        self.report = Report()
        # By the watched function itself, weakly: a freed one's id is soon another's.
        self._over_budget: weakref.WeakSet[Watched] = weakref.WeakSet()
        self._counts: weakref.WeakKeyDictionary[Watched, int] = weakref.WeakKeyDictionary()

    def budget(self, name: str) -> int | None:
        if isinstance(self.max_compiles, Mapping):
            return self.max_compiles.get(name)
        return self.max_compiles

    def compiled(self, watched: Watched) -> None:
        count = self._counts.get(watched, 0) + 1
        self._counts[watched] = count
        self.report.compiles[watched.name] = self.report.compiles.get(watched.name, 0) + 1
        self.report.files.add(watched.jitted_at.path)
        if count == 1 and watched.compile_log:
            self.report.first_compile(watched, watched.compile_log[-1])
        budget = self.budget(watched.name)
        if budget is not None and count > budget and watched not in self._over_budget:
            self._over_budget.add(watched)
            notes = tuple(f"  {line}" for line in watched.explain().splitlines()[1:])
            message = phrases.over_budget(watched.name, count, budget)
            self.report.add(Finding(message, user_place(), (("jitted at", watched.jitted_at),), notes))


class _Hub:
    """The sanitizers that are on, innermost last, as the watched functions see them."""

    def __init__(self) -> None:
        self.on: list[Sanitizer] = []
        self.original_jit: Callable[..., Any] | None = None

    @property
    def active(self) -> bool:
        return bool(self.on)

    def found(self, message: Message, watched: Watched, *, stale_call: bool = False) -> None:
        finding = Finding(message, user_place(), (("jitted at", watched.jitted_at),))
        for sanitizer in self.on:
            sanitizer.report.add(finding)
        if stale_call and any(sanitizer.strict for sanitizer in self.on):
            raise StaleResultError(message, str(finding.place))

    def compiled(self, watched: Watched) -> None:
        for sanitizer in self.on:
            sanitizer.compiled(watched)

    def start(self, sanitizer: Sanitizer) -> None:
        import jax

        if self.original_jit is None:
            self.original_jit = jax.jit
            jax.jit = functools.wraps(jax.jit)(_watching_jit)
        self.on.append(sanitizer)

    def stop(self, sanitizer: Sanitizer) -> None:
        import jax

        self.on.remove(sanitizer)
        if not self.on and self.original_jit is not None:
            jax.jit = self.original_jit
            self.original_jit = None


HUB = _Hub()


def _watching_jit(fun: Callable[..., Any] | None = None, /, *args: Any, **options: Any) -> Any:
    """``jax.jit`` while a sanitizer is on: jax's own, its result watched."""
    original = HUB.original_jit
    assert original is not None
    if fun is None:  # the decorator factory, jax.jit(static_argnums=...)
        return functools.partial(_watching_jit, *args, **options)
    jitted = original(fun, *args, **options)
    if not HUB.active:
        return jitted
    return Watched(jitted, fun, options, jit_place(fun), HUB)


class sanitize(contextlib.ContextDecorator):
    """Watch every ``jax.jit`` made inside: stale results and needless compiles are reported.

    ``with jaxtypes.sanitize() as report:`` gives the ``Report`` (``report.findings``); as a
    decorator, each call of the function is watched. ``strict=True`` raises
    ``StaleResultError`` at the first call that reuses code compiled for values that have
    changed since, instead of returning its stale result. ``max_compiles`` is a compile budget:
    one number for every jitted function, or a mapping from function names to numbers.
    """

    def __init__(self, *, strict: bool = False, max_compiles: Budget = None) -> None:
        self._strict = strict
        self._max_compiles = max_compiles
        self._running: list[Sanitizer] = []

    def __enter__(self) -> Report:
        sanitizer = Sanitizer(strict=self._strict, max_compiles=self._max_compiles)
        self._running.append(sanitizer)
        HUB.start(sanitizer)
        return sanitizer.report

    def __exit__(self, *exc: object) -> None:
        HUB.stop(self._running.pop())
