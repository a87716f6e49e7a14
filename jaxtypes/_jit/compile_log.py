"""How often a ``jaxtypes.jit`` function compiled, and why each compile after the first happened.

jaxtypes hands jax a thin wrapper of the user's function that records the arguments each time
jax *traces* it; a call that hits jit's cache never reaches the wrapper, so recording costs
nothing per call. Each record keeps the static arguments' values and the traced arguments'
tree structure and abstract values (shape, dtype, weak type); a new record is compared with
the most similar earlier one to say what changed: a static value, a shape, a dtype, a
structure, or a static value that compares equal to an earlier one but hashes differently,
which jit cannot find in its cache (``jit-recompile``; ``warn_on_recompile=True`` turns these
into a ``RecompileWarning``).

Relation to ``jax.config.update("jax_explain_cache_misses", True)``: that flag is global, logs
every cache miss of every jitted function, and for a static argument that hashes differently
it shows only "pytree node metadata does not match" with two reprs. This log is per function,
can be read from code (``len(f.compiles)``, ``f.compiles[i].reasons``, ``f.compiles.explain()``),
names the argument, and recognises the equal-but-differently-hashed case. What it does not see:
jit also compiles again, without tracing again, when only the devices holding the inputs
change (a committed array on another device); such compiles are not counted here, while the
jax flag reports them. With ``device=`` every input is moved to one place, so that cannot happen.
"""

from __future__ import annotations

import functools
import inspect
import types
import warnings
import weakref
from collections.abc import Iterator
from typing import Any, NamedTuple

import jax

from jaxtypes._classes.errors import RecompileWarning, class_name
from jaxtypes._classes.hashing import hashes_by_identity
from jaxtypes._classes.static_values import is_array
from jaxtypes._vocabulary.rules import IDENTITY_HASH_FIX, JIT_RECOMPILE, STATIC_FRESH_CALLABLE


class Traced(NamedTuple):
    """A traced argument as jit's cache sees it: its tree structure and its leaves' abstract values."""

    treedef: Any
    avals: tuple[Any, ...]

    def summary(self) -> str:
        return ", ".join(aval.str_short(short_dtypes=True) for aval in self.avals) or str(self.treedef)


class Recompiled(NamedTuple):
    """A static argument compiled for again though it is the same value as in an earlier
    compile (``jit-recompile``): why jit told the two apart, and the fix for that."""

    argument: str
    earlier: int
    reason: str
    fix: str


class Compile(NamedTuple):
    """One trace of the function: its arguments by name, which were passed by keyword, and why;
    ``recompiled``: the static arguments among those reasons that were the same value as in an
    earlier compile."""

    number: int
    arguments: dict[str, Any]
    by_keyword: frozenset[str]
    reasons: tuple[str, ...]
    recompiled: tuple[Recompiled, ...] = ()


class CompileLog:
    """The compiles of one jitted function, in order; ``len(log)`` is how many there were."""

    def __init__(self, name: str, signature: inspect.Signature, static: frozenset[str], warn: bool) -> None:
        self._name = name
        self._signature = signature
        self._static = static
        self._warn = warn
        self._compiles: list[Compile] = []

    def record(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Note one trace, called by the traced wrapper with the arguments jax traces with. Arguments
        the signature cannot bind are no trace: jax raised for them already, or will."""
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError:
            return
        bound.apply_defaults()
        arguments = {name: value if name in self._static else _traced(value) for name, value in bound.arguments.items()}
        index = len(self._compiles) + 1
        by_keyword = frozenset(kwargs)
        reasons, recompiled = self._reasons(arguments, by_keyword)
        self._compiles.append(Compile(index, arguments, by_keyword, reasons, tuple(recompiled)))
        if self._warn:
            for name, earlier, _, fix in recompiled:
                value = arguments[name]
                warnings.warn(
                    RecompileWarning(
                        JIT_RECOMPILE.message(
                            f"{self._name}: static argument {name!r}",
                            f"({class_name(type(value))}) was compiled for again in compile #{index}, "
                            f"although it equals its value in compile #{earlier}",
                            fix,
                        ).text()
                    ),
                    stacklevel=2,
                )

    def _reasons(
        self, arguments: dict[str, Any], by_keyword: frozenset[str]
    ) -> tuple[tuple[str, ...], list[Recompiled]]:
        """Why a new trace happened, against the earlier one it differs least from (of those, one
        it has the same value as, where there is one)."""
        if not self._compiles:
            return ("first call",), []
        compared = [
            (*_differences(earlier, arguments, by_keyword), earlier.number) for earlier in reversed(self._compiles)
        ]
        changes, recompiled, index = min(compared, key=lambda found: (len(found[0]), -len(found[1])))
        if not changes:
            changes = [
                f"no argument changed since compile #{index}: the cache was cleared, a global "
                "setting (jax.config, default device) changed, or jit evicted the entry"
            ]
        return tuple(changes), recompiled

    def __len__(self) -> int:
        return len(self._compiles)

    def __iter__(self) -> Iterator[Compile]:
        return iter(self._compiles)

    def __getitem__(self, index: int) -> Compile:
        return self._compiles[index]

    def explain(self) -> str:
        """One line per compile: its number and why it happened."""
        lines = [f"{self._name} compiled {len(self._compiles)} time(s)"]
        lines += [f"  #{c.number}: " + "; ".join(c.reasons) for c in self._compiles]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CompileLog of {self._name}: {len(self._compiles)} compile(s)>"


def _traced(value: Any) -> Traced:
    leaves, treedef = jax.tree_util.tree_flatten(value)
    return Traced(treedef, tuple(jax.typeof(leaf) for leaf in leaves))


def _differences(
    earlier: Compile, arguments: dict[str, Any], by_keyword: frozenset[str]
) -> tuple[list[str], list[Recompiled]]:
    """What differs between an earlier compile's arguments and new ones, and which static
    arguments are the same value as before yet were told apart (with that reason)."""
    changes = [
        f"argument {name!r} was passed {'by keyword' if name in by_keyword else 'by position'} "
        f"(jit caches the two call forms separately)"
        for name in sorted(earlier.by_keyword ^ by_keyword)
    ]
    recompiled: list[Recompiled] = []
    for name, new in arguments.items():
        old = earlier.arguments[name]
        if isinstance(new, Traced):
            if old.treedef != new.treedef:
                changes.append(f"argument {name!r} changed structure: {old.treedef} -> {new.treedef}")
            elif old.avals != new.avals:
                changes.append(f"argument {name!r} changed: {old.summary()} -> {new.summary()}")
        elif _equal(old, new):
            if _hash(old) != _hash(new):
                changes.append(
                    f"static argument {name!r} equals its value in compile #{earlier.number} but hashes "
                    f"differently ({class_name(type(new))}), so jit could not reuse that compile"
                )
                recompiled.append(Recompiled(name, earlier.number, changes[-1], JIT_RECOMPILE.fix))
        elif (apart := _same_value_told_apart(old, new)) is not None:
            reason, fix = apart
            changes.append(f"static argument {name!r} has the same value as in compile #{earlier.number}, but {reason}")
            recompiled.append(Recompiled(name, earlier.number, changes[-1], fix))
        elif not _equal(old, new):
            changes.append(f"static argument {name!r} changed: {_short(old)} -> {_short(new)}")
    return changes, recompiled


def _equal(a: Any, b: Any) -> bool:
    try:
        return a is b or type(a) is type(b) and bool(a == b)
    except Exception:  # a static value whose == does not give a bool: never equal for jit either
        return False


def _same_value_told_apart(a: Any, b: Any) -> tuple[str, str] | None:
    """Why two distinct static values jit tells apart are one value, and the fix, or None if
    they are not: an identity-hashed class's instances with equal attributes (a plain
    ``Vehicle(2)`` built again for each call), or functions made again from the same code with
    equal closures and defaults (two ``optax.adam(1e-3)``), also inside a tuple."""
    if a is b or not same_value(a, b):
        return None
    if isinstance(b, types.FunctionType):
        return (
            "it is a function made again from the same code and values, which compares by identity, so every copy compiles again",
            STATIC_FRESH_CALLABLE.fix,
        )
    if not hashes_by_identity(type(b)):
        return (
            "the functions it holds are made again from the same code and values, and compare by identity, so every copy compiles again",
            STATIC_FRESH_CALLABLE.fix,
        )
    return f"{class_name(type(b))} compares and hashes by identity, so every copy compiles again", IDENTITY_HASH_FIX


_DEPTH = 12


def same_value(a: Any, b: Any) -> bool:
    """``a == b``, or, for values that compare by identity, the same class holding values that
    are the same: a function's code, closure and defaults; a bound method's function and object; a
    partial's function and arguments; a wrapper's attributes (what it wraps, ``functools.wraps``,
    among them); an identity-hashed instance's attributes; the items of a tuple, list or dict."""
    return _equal(a, b) or same_form(value_form(a), value_form(b))


def same_form(a: Any, b: Any) -> bool:
    """Two ``value_form``s are the same value."""
    try:
        return bool(a == b)
    except Exception:  # a value whose == gives no bool (an array): not the same
        return False


def value_form(value: Any, depth: int = _DEPTH) -> Any:
    """``value`` as ``same_value`` compares it, taken now: plain tuples and dicts of its parts,
    down to values that compare by ``==`` and objects that are only themselves (``_Same``). A
    closure's contents are copied out, so a form keeps what a function held when it was taken,
    though its cells change later; it holds no function, so it keeps none alive. A tracer (of an
    enclosing ``grad`` or ``vmap``, held in a closure or a module) is its abstract value: jit
    compiles the same program for any tracer of that shape and dtype."""
    if isinstance(value, jax.core.Tracer):
        return _traced_form(value)
    if depth == 0 or isinstance(value, (types.ModuleType, type, types.BuiltinFunctionType)) or is_array(value):
        return _Same(value)  # an array only by identity, held weakly: no buffer is kept alive
    depth -= 1
    if isinstance(value, types.FunctionType):
        parts = (*_closure(value), value.__defaults__, value.__kwdefaults__)
        return ("function", _Same(value.__code__), tuple(value_form(part, depth) for part in parts))
    if isinstance(value, types.MethodType):
        return ("method", _Same(value.__func__), value_form(value.__self__, depth))
    if isinstance(value, functools.partial):
        return ("partial", *(value_form(part, depth) for part in (value.func, value.args, value.keywords)))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(value_form(item, depth) for item in value))
    if isinstance(value, dict):
        return ("dict", {key: value_form(item, depth) for key, item in value.items()})
    attributes = getattr(value, "__dict__", None)
    if callable(value) and getattr(value, "__wrapped__", None) is not None:
        parts = attributes if isinstance(attributes, dict) else {"__wrapped__": value.__wrapped__}
        return ("wrapper", type(value), value_form(dict(parts), depth))
    if hashes_by_identity(type(value)):
        return (
            ("instance", type(value), value_form(dict(attributes), depth))
            if isinstance(attributes, dict)
            else _Same(value)
        )
    leaves, treedef = jax.tree_util.tree_flatten(value)
    if any(isinstance(leaf, jax.core.Tracer) for leaf in leaves):
        return ("tree", treedef, tuple(value_form(leaf, depth) for leaf in leaves))
    return ("value", value)


def _traced_form(tracer: Any) -> Any:
    """A tracer as a program traced with it sees it: its type and abstract value, and those of the
    arrays and the axis numbers it carries (a batch tracer's batched value and batch axis)."""
    parts = []
    for cls in type(tracer).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name in ("__weakref__", "__dict__"):  # another class's slot descriptors on older jax
                continue
            part = getattr(tracer, name, None)
            if isinstance(part, jax.core.Tracer):
                parts.append((name, _traced_form(part)))
            elif isinstance(part, jax.Array):
                parts.append((name, jax.typeof(part)))
            elif isinstance(part, int):
                parts.append((name, part))
    return ("traced", type(tracer), jax.typeof(tracer), tuple(parts))


class _Same:
    """An object that is only itself in a ``value_form``: equal to a form of the same object. It
    is held weakly where it can be: a freed object, whose id is soon another's, equals nothing."""

    __slots__ = ("_held", "_weak")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, value: Any) -> None:
        try:
            self._held, self._weak = weakref.ref(value), True
        except TypeError:  # None, an int: kept
            self._held, self._weak = value, False

    def _object(self) -> Any:
        return self._held() if self._weak else self._held

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Same):
            return NotImplemented
        mine = self._object()
        return mine is other._object() and (mine is not None or not self._weak)


def same_call(earlier: Compile, later: Compile) -> bool:
    """Two compiles of one function for arguments of the same value (the same static values,
    structures and abstract values): the later one was needed only because the function, or a
    static value jit tells apart from an equal one, was made again."""
    if earlier.arguments.keys() != later.arguments.keys():
        return False
    changes, same_value_told_apart = _differences(earlier, later.arguments, later.by_keyword)
    return len(changes) == len(same_value_told_apart)


def _closure(function: types.FunctionType) -> tuple[Any, ...]:
    """What a function's closure cells hold (an empty cell as itself)."""
    values = []
    for cell in function.__closure__ or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:
            values.append(cell)
    return tuple(values)


def _hash(value: Any) -> int | None:
    try:
        return hash(value)
    except TypeError:
        return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
