"""One function ``jax.jit`` returned, watched call by call while the sanitizer is on.

A call goes to jax unchanged; around it, the watcher reads the size of jit's cache, so it knows
whether the call compiled or reused code. At each compile it keeps, under the static values'
key (hashed and compared as jit does), snapshots of what that code was built from: the static
arguments, the object behind a bound method or callable instance, a partial's arguments, and
the globals and closure variables the user's code reads. A later call that reuses that code
while one of those has changed since returned a stale result (``jit-stale-static``,
``jit-stale-global``). A compile for values equal to an earlier compile's is ``jit-recompile``,
in the compile log's words. Settled values (``snapshots.settled``) are looked at once.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import operator
import types
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from jaxtypes._classes.errors import class_name
from jaxtypes._jit.compile_log import CompileLog
from jaxtypes._jit.jax_internals import cache_size
from jaxtypes._jit.jaxtypes_jit import as_tuple, static_args
from jaxtypes._observe.audit import audit_jit_argument, described_trees, nodes
from jaxtypes._observe.call_sites import Place
from jaxtypes._observe.library_fields import static_field_values
from jaxtypes._observe.reads import Read, reads_of
from jaxtypes._observe.snapshots import Difference, Snapshot, difference, settled, snapshot
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.rules import Message


class Watched:
    """What ``jax.jit(fun, ...)`` returned, called through the sanitizer (``sanitizer.Sanitizer``).

    Its own state is in slots, so that its ``__dict__`` holds only what ``functools.wraps`` copies
    from jax's function: compared as a value (``compile_log.value_form``), it is what it wraps."""

    __slots__ = (
        "_jitted",
        "_sanitizer",
        "fun",
        "jitted_at",
        "name",
        "_positions",
        "_log",
        "_entries",
        "_bound",
        "_reads",
        "_audited",
        "_recompile_reported",
        "__dict__",
        "__weakref__",
    )

    def __init__(
        self, jitted: Any, fun: Callable[..., Any], options: dict[str, Any], jitted_at: Place, sanitizer: Any
    ) -> None:
        self._jitted = jitted
        self._sanitizer = sanitizer
        self.fun = fun
        self.jitted_at = jitted_at
        self.name = _name(fun)
        self._positions = _StaticPositions.of(fun, options)
        self._log = CompileLog(self.name, self._positions.signature, frozenset(self._positions.names), warn=False)
        self._entries: dict[Any, _Entry] = {}
        self._bound = bound_parts(fun)
        self._reads: list[Read] | None = None
        self._audited = False
        self._recompile_reported = False
        functools.update_wrapper(self, jitted, updated=())

    @property
    def compile_log(self) -> CompileLog:
        """Its compiles while watched, and why each happened."""
        return self._log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._jitted, name)

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        return self if obj is None else types.MethodType(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self._sanitizer.active:
            return self._jitted(*args, **kwargs)
        statics = self._positions.values(args, kwargs)
        key = _key(statics)
        entry = self._entries.get(key) if key is not None else None
        if not self._audited:
            self._audit(args, kwargs)
        before = self._read_now() if entry is None and key is not None else None
        size = cache_size(self._jitted)
        result = self._jitted(*args, **kwargs)
        compiled = cache_size(self._jitted) != size
        reused = self._entry_of_objects(key) if entry is None else None if compiled else entry
        if compiled:
            self._compiled(key, statics, args, kwargs, before)
        if reused is not None:
            stale = next(self._stale(reused, statics), None) or self._stale_metadata(reused, args, kwargs)
            if stale is not None:
                self._sanitizer.found(stale, self, stale_call=True)
        return result

    def _entry_of_objects(self, key: Any) -> _Entry | None:
        """The entry compiled for the very objects of ``key``, where no key equal to ``key`` has
        one: a static value changed in place since, and its hash with it. jit's caches hold that
        object: the call may reuse its code (or its trace, in a compile of its own)."""
        if key is None:
            return None
        for earlier, entry in self._entries.items():
            if len(earlier) == len(key) and all(old is new for (_, old), (_, new) in zip(earlier, key)):
                return entry
        return None

    def _compiled(
        self,
        key: Any,
        statics: list[tuple[str, Any]],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        before: dict[str, Snapshot] | None,
    ) -> None:
        """Note a compile: its reasons, and what it was built from, under its key."""
        count = len(self._log)
        self._log.record(args, kwargs)
        self._sanitizer.compiled(self)
        if len(self._log) == count:
            return
        latest = self._log[-1]
        if latest.recompiled and not self._recompile_reported:
            self._recompile_reported = True
            first = latest.recompiled[0]
            self._sanitizer.found(phrases.recompiled(self.name, latest.number, first.reason, first.fix), self)
        if key is None:
            return
        reads = self._read_now()
        sinks = {
            label for label, snap in reads.items() if before is not None and difference(before[label], snap, label)
        }
        earlier = self._entries.get(key)
        metadata = self._metadata_now(args, kwargs)
        self._entries[key] = _Entry(
            {label: (value, snapshot(value)) for label, value in statics if not settled(value)},
            {label: snapshot(value) for label, value in self._bound if not settled(value)},
            _ReadSnapshots(self._reads or [], {label: snap for label, snap in reads.items() if label not in sinks}),
            [
                *(earlier.metadata if earlier else ()),
                {path: (value, snapshot(value)) for path, value in metadata.items()},
            ],
        )

    def _stale(self, entry: _Entry, statics: list[tuple[str, Any]]) -> Iterator[Message]:
        """What changed since the code this call reused was compiled."""
        for label, value in statics:
            if label in entry.statics:
                found = _changed_in_place(*entry.statics[label], value, label)
                if found is not None:
                    yield phrases.stale_static(self.name, phrases.static_argument(label), *found)
        for label, value in self._bound:
            if label in entry.bound:
                found = _changed_in_place(value, entry.bound[label], value, label)
                if found is not None:
                    yield phrases.stale_static(self.name, _bound_subject(label, value), *found)
        for read, found in entry.reads.changes():
            yield phrases.stale_global(self.name, read.kind, read.label, *found)

    def _stale_metadata(self, entry: _Entry, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Message | None:
        """Pytree metadata changed in place since code was compiled for it: jit's cached treedef
        holds the very object, so it compares equal to a call whose metadata equals the object
        as it is now, and that call may run code compiled for what it held then."""
        if not any(entry.metadata):
            return None
        now = self._metadata_now(args, kwargs)
        for compiled in entry.metadata:
            for path, (held, then) in compiled.items():
                change = _changed_in_place(held, then, now[path], path) if path in now else None
                if change is not None:
                    argument = path.split(".", 1)[0].split("[", 1)[0]
                    return phrases.stale_static(self.name, phrases.pytree_metadata(argument), *change)
        return None

    def _metadata_now(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The pytree metadata of the traced arguments that can change in place, by path: a
        dataclass node's static fields, a ``register_static`` object, other nodes' aux data."""
        found: dict[str, Any] = {}
        for name, value in self._positions.traced(args, kwargs):
            for node in nodes(value, name):
                if dataclasses.is_dataclass(node.value) and not isinstance(node.value, type):
                    fields = static_field_values(node.value, node.children, node.metadata)
                    found |= {f"{node.path}.{field.name}": value for field, value in fields}
                elif node.metadata is node.value or node.holds_metadata:
                    found[node.path] = node.metadata
        return {path: value for path, value in found.items() if not settled(value)}

    def read_values(self) -> dict[str, Any]:
        """The globals and closure variables the user's code reads, by name, as they are now."""
        if self._reads is None:
            self._reads = reads_of(self.fun)
        return {read.label: read.value() for read in self._reads}

    def _read_now(self) -> dict[str, Snapshot]:
        """The globals and closure variables the user's code reads, as they are now."""
        return {label: snapshot(value) for label, value in self.read_values().items()}

    def _audit(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Arrays and unhashable values in the pytree metadata of the traced arguments, and of
        the trees whose ``PyTreeDef`` a static argument holds, at the first call: jax fails on
        them only at a later call, with an error that names no field, or compares them silently."""
        self._audited = True
        trees = self._positions.traced(args, kwargs)
        trees += [
            found for label, value in self._positions.values(args, kwargs) for found in described_trees(value, label)
        ]
        for name, value in trees:
            for error in audit_jit_argument(value, name):
                self._sanitizer.found(error.message, self)

    def explain(self) -> str:
        """The compile log's account: one line per compile and why it happened."""
        return self._log.explain()

    def __repr__(self) -> str:
        return f"<jaxtypes-sanitized {self._jitted!r}>"


class _Entry(NamedTuple):
    """What the code compiled under one key was built from."""

    statics: dict[str, tuple[Any, Snapshot]]
    """Each static value that can change: the object jit's cache key holds, and what it held."""
    bound: dict[str, Snapshot]
    reads: _ReadSnapshots
    metadata: list[dict[str, tuple[Any, Snapshot]]]
    """The changeable pytree metadata of the traced arguments at each compile: the object jit's
    treedef holds, and what it held then."""


class _ReadSnapshots:
    """The globals and closure variables the code compiled under one key was traced with. One
    whose snapshot is the object itself (a scalar, a string, a jax array, a function) changed only
    if it was rebound: all of those are checked by identity in one pass per namespace; the rest
    (a list, a dict, an object with attributes) by a snapshot of what they hold now."""

    def __init__(self, reads: list[Read], snapshots: dict[str, Snapshot]) -> None:
        kept = [(read, snapshots[read.label]) for read in reads if read.label in snapshots]
        self._objects = [(read, snap) for read, snap in kept if snap.kind in ("value", "same")]
        self._contents = [(read, snap) for read, snap in kept if snap.kind not in ("value", "same")]
        groups: dict[int, tuple[dict[str, Any], list[str], list[Any]]] = {}
        self._cells: list[tuple[Read, Any]] = []
        for read, snap in self._objects:
            if read.namespace is not None:
                group = groups.setdefault(id(read.namespace), (read.namespace, [], []))
                group[1].append(read.label)
                group[2].append(snap.held)
            else:
                self._cells.append((read, snap.held))
        self._globals = [(namespace, labels, helds) for namespace, labels, helds in groups.values()]

    def _rebound(self) -> bool:
        """Whether a read held by identity is now another object (or an empty cell)."""
        for namespace, labels, helds in self._globals:
            if not all(map(operator.is_, map(namespace.get, labels), helds)):
                return True
        return any(read.value() is not held for read, held in self._cells)

    def changes(self) -> Iterator[tuple[Read, Difference]]:
        """Each read whose value differs from its snapshot, and how."""
        candidates = (self._objects if self._rebound() else []) + self._contents
        for read, snap in candidates:
            found = difference(snap, snapshot(read.value()), read.label)
            if found is not None:
                yield read, found


class _StaticPositions(NamedTuple):
    """Which arguments of calls jit holds static, as jit reads ``static_argnums``/``static_argnames``."""

    signature: inspect.Signature
    positional: tuple[str, ...]
    nums: frozenset[int]
    names: frozenset[str]

    @classmethod
    def of(cls, fun: Callable[..., Any], options: dict[str, Any]) -> _StaticPositions:
        try:
            signature = inspect.signature(fun)
        except (TypeError, ValueError):
            signature = inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])
        positional = tuple(
            p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        )
        indices = {n + len(positional) if n < 0 else n for n in as_tuple(options.get("static_argnums", ()))}
        nums, names = static_args(signature, set(as_tuple(options.get("static_argnames", ()))), indices)
        return cls(signature, positional, frozenset(nums), frozenset(names))

    def values(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
        """The static arguments of a call, labelled by parameter name (or position)."""
        found = [(self._label(i), args[i]) for i in sorted(self.nums) if i < len(args)]
        return found + [(name, kwargs[name]) for name in sorted(self.names) if name in kwargs]

    def traced(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
        """The traced arguments of a call, labelled likewise."""
        found = [(self._label(i), arg) for i, arg in enumerate(args) if i not in self.nums]
        return found + [(name, value) for name, value in kwargs.items() if name not in self.names]

    def _label(self, index: int) -> str:
        return self.positional[index] if index < len(self.positional) else f"#{index}"


def _changed_in_place(held: Any, then: Snapshot, value: Any, path: str) -> Difference | None:
    """How ``held``, an object jit compiled for, changed in place since (``then``), where this
    call's ``value`` is that object or equal to it as it is now: the call matched the code built
    for what it held then. An equal value that is another object, the held one unchanged, is
    the same value to jit and to its class's ``==``: no change."""
    held_now = snapshot(held)
    change = difference(then, held_now, path)
    if change is None or held is value or difference(held_now, snapshot(value), path) is None:
        return change
    return None


def _key(statics: list[tuple[str, Any]]) -> Any:
    """The static values as jit's cache key holds them; None where they cannot be hashed (jax
    refuses such a call itself)."""
    key = tuple((label, value) for label, value in statics)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def bound_parts(fun: Any, depth: int = 8) -> list[tuple[str, Any]]:
    """What ``fun`` carries besides its code, which jit compiles in: a bound method's object, a
    callable instance itself, a partial's arguments (of a partial of those, too), what the
    function a wrapper wraps carries (``__wrapped__``: ``jax.vmap(obj.method)`` calls it)."""
    if isinstance(fun, functools.partial):
        parts = [(f"#{i}", arg) for i, arg in enumerate(fun.args)] + list(fun.keywords.items())
        return parts + bound_parts(fun.func, depth)
    if isinstance(fun, types.MethodType) and not isinstance(fun.__self__, (type, types.ModuleType)):
        return [("self", fun.__self__)]
    inner = getattr(fun, "__wrapped__", None)
    if inner is not None and depth:  # a chain of wrappers that never ends is cut
        return bound_parts(inner, depth - 1)
    if not isinstance(fun, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)):
        return [("self", fun)]
    return []


def _bound_subject(label: str, value: Any) -> str:
    return phrases.bound_object(class_name(type(value))) if label == "self" else phrases.partial_argument(label)


def _name(fun: Callable[..., Any]) -> str:
    while isinstance(fun, functools.partial):
        fun = fun.func
    name = getattr(fun, "__qualname__", None) or class_name(type(fun))
    return str(name).rsplit("<locals>.", 1)[-1]
