"""The globals, closure variables and attributes of the user's classes and modules a jitted
function's code reads: tracing compiles their values in, and jit's cache never looks at them
again.

Read from the bytecode of the user's functions: the function given to jit, what it wraps
(``__wrapped__``) and the functions in its closure (``jaxtypes.jit`` and libraries wrap the
user's function in one of their own), and the
user's functions it names, a few calls deep. Code of jax, of installed libraries and of the
standard library is looked through, never watched. A name the code assigns (``global n``,
``Counter.n = ...``) is its own side effect, not a value compiled in. A module or class is not
watched itself (rebinding one is rare, and its identity is its value), but an attribute the code
reads from one of the user's (``Reference.images``, ``settings.SCALE``) is: a program that
reassigns it later runs code traced with the old value.
"""

from __future__ import annotations

import dis
import inspect
import functools
import sys
import types
from collections.abc import Callable
from typing import Any, NamedTuple

from jaxtypes._observe.call_sites import is_user_code, is_user_file

_DEPTH = 3
_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME"})
_STORES = frozenset({"STORE_GLOBAL", "DELETE_GLOBAL"})
_ATTRIBUTE_STORES = frozenset({"STORE_ATTR", "DELETE_ATTR"})
_COPIES = frozenset({"COPY", "DUP_TOP"})


class Read(NamedTuple):
    """A global (``kind`` "global", in ``namespace``), a closure variable (in ``cell``) or an
    attribute of the user's class or module (``holder``; ``label`` is ``Name.attribute``)."""

    kind: str
    label: str
    namespace: dict[str, Any] | None
    cell: types.CellType | None
    holder: Any = None

    def value(self) -> Any:
        if self.cell is not None:
            try:
                return self.cell.cell_contents
            except ValueError:  # an empty cell
                return None
        if self.holder is not None:
            return _attribute(self.holder, self.label.rpartition(".")[2])
        assert self.namespace is not None
        return self.namespace.get(self.label)


def reads_of(fun: Callable[..., Any]) -> list[Read]:
    """What ``fun``'s user code reads from outside itself, one entry per name."""
    found: dict[str, Read] = {}
    seen: set[int] = set()
    for layer in _layers(fun):
        _visit(python_function(layer), found, seen, _DEPTH)
    return list(found.values())


def python_function(fun: Any) -> types.FunctionType | None:
    """The Python function a callable runs: itself, a bound method's or a partial's function, or
    a callable instance's ``__call__``."""
    return _function(fun) or _function(inspect.getattr_static(type(fun), "__call__", None))


def closure_values(fun: types.FunctionType) -> list[tuple[str, Any]]:
    """The names and values of ``fun``'s closure variables (empty cells left out)."""
    found = []
    for name, cell in zip(fun.__code__.co_freevars, fun.__closure__ or ()):
        try:
            found.append((name, cell.cell_contents))
        except ValueError:
            continue
    return found


def unwrapped(fun: Any) -> Any:
    """What a callable object that wraps a function (``__wrapped__``: ``jaxtypes.jit``'s tracer)
    calls; a function, bound method or partial as it is."""
    while not isinstance(fun, (types.FunctionType, types.MethodType, functools.partial)):
        inner = getattr(fun, "__wrapped__", None)
        if inner is None:
            break
        fun = inner
    return fun


def _layers(fun: Any) -> list[Any]:
    """``fun`` and what it wraps (``__wrapped__``, as ``functools.wraps`` and ``jaxtypes.jit``
    set it), outermost first."""
    layers = [fun]
    while getattr(layers[-1], "__wrapped__", None) is not None and len(layers) < _DEPTH:
        layers.append(layers[-1].__wrapped__)
    return layers


def _visit(fun: types.FunctionType | None, found: dict[str, Read], seen: set[int], depth: int) -> None:
    if fun is None or id(fun) in seen or depth < 0:
        return
    seen.add(id(fun))
    code = fun.__code__
    user = is_user_code(code)
    cells = dict(zip(code.co_freevars, fun.__closure__ or ()))
    for name, value in closure_values(fun):
        if user and _watched(value):
            found.setdefault(name, Read("closure variable", name, None, cells[name]))
        _visit(_function(value), found, seen, depth - 1)
    if not user:
        return
    loads, stores = _names(code)
    for name in sorted(loads - stores):
        if "." in name:
            _visit_attribute(fun.__globals__, name, found, seen, depth)
            continue
        if name not in fun.__globals__:
            continue  # a builtin
        value = fun.__globals__[name]
        if _watched(value):
            found.setdefault(name, Read("global", name, fun.__globals__, None))
        _visit(_function(value), found, seen, depth - 1)


def _visit_attribute(namespace: dict[str, Any], label: str, found: dict[str, Read], seen: set[int], depth: int) -> None:
    """``Name.attribute`` read from ``namespace``: watched where ``Name`` is the user's class
    or module."""
    name, _, attribute = label.partition(".")
    holder = namespace.get(name)
    if not isinstance(holder, (type, types.ModuleType)) or not _users(holder):
        return
    kind = "module attribute" if isinstance(holder, types.ModuleType) else "class attribute"
    value = _attribute(holder, attribute)
    if _watched(value):
        found.setdefault(label, Read(kind, label, None, None, holder))
    _visit(_function(value), found, seen, depth - 1)


@functools.lru_cache(maxsize=1024)
def _names(code: types.CodeType) -> tuple[frozenset[str], frozenset[str]]:
    """The global names ``code`` (and the code nested in it) loads and assigns, and the
    attributes of globals it reads or assigns as ``Name.attribute`` (a method it calls so is
    code, not a value)."""
    loads: set[str] = set()
    stores: set[str] = set()
    updated: dict[str, str] = {}  # ``Name.attribute += 1`` reads the attribute from a copy of Name
    holder = None  # the global whose attribute the next instruction may load or assign
    copied = False
    for instruction in dis.get_instructions(code):
        opname, argval = instruction.opname, str(instruction.argval)
        label = f"{holder}.{argval}"
        if opname in _LOADS:
            loads.add(argval)
        elif opname in _STORES:
            stores.add(argval)
        elif opname == "LOAD_ATTR" and holder is not None and not _is_method_load(instruction):
            loads.add(label)
            updated.update({argval: label} if copied else {})
        elif opname in _ATTRIBUTE_STORES and (holder is not None or argval in updated):
            stores.add(label if holder is not None else updated[argval])
        copied = holder is not None and opname in _COPIES and instruction.arg in (None, 1)
        holder = argval if opname in _LOADS else holder if copied else None
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            nested_loads, nested_stores = _names(const)
            loads |= nested_loads
            stores |= nested_stores
    return frozenset(loads), frozenset(stores)


def _is_method_load(instruction: dis.Instruction) -> bool:
    """``Name.method(...)``: from Python 3.12 on, LOAD_ATTR's low bit marks a method call."""
    return sys.version_info >= (3, 12) and instruction.arg is not None and bool(instruction.arg & 1)


def _users(holder: type | types.ModuleType) -> bool:
    """A class or module defined in a file of the user's program."""
    module = holder if isinstance(holder, types.ModuleType) else sys.modules.get(holder.__module__)
    filename = getattr(module, "__file__", None)
    return isinstance(filename, str) and is_user_file(filename)


def _attribute(holder: Any, attribute: str) -> Any:
    """``holder.attribute`` as the code reads it, or None where reading it fails."""
    try:
        return getattr(holder, attribute)
    except Exception:  # a property of a metaclass, a module's __getattr__ that raises
        return None


def _watched(value: Any) -> bool:
    return not isinstance(value, (types.ModuleType, type))


def _function(value: Any) -> types.FunctionType | None:
    """The Python function behind a value that calls one: itself, a bound method's, a partial's."""
    while isinstance(value, functools.partial):
        value = value.func
    value = getattr(value, "__func__", value)
    return value if isinstance(value, types.FunctionType) else None
