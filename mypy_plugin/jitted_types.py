"""What the type of a jitted function carries, read by every check of its calls.

``jax.jit`` and ``jaxtypes.jit`` both return an instance type (``JitWrapped``, ``Jitted``); the
plugin gives it ``extra_attrs`` holding literal tuples of the static indices and names
(``Statics``). ``eqx.filter_jit`` returns a callable typed as the function it is given; the plugin
marks that callable's fallback instance (``mark_filtered``): every leaf of its arguments that is
no array is static. mypy serialises both with the type, so a call of a function jitted in another
module is judged the same from the cache, in parallel workers and in the daemon.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from mypy.nodes import CallExpr, Decorator, Expression, FuncBase, FuncDef, FuncItem, SymbolTableNode, Var
from mypy.plugin import CheckerPluginInterface
from mypy.types import CallableType, ExtraAttrs, Instance, LiteralType, TupleType, Type, get_proper_type

from jaxtypes._vocabulary.names import JAX_DEPENDENCIES, JAX_JIT, JITS
from mypy_plugin.statements import placed

_FILTERED = "__jaxtypes_filtered__"
_NUMS = "__jaxtypes_static_argnums__"
_NAMES = "__jaxtypes_static_argnames__"
_PRIVATE = "__jaxtypes_private__"
_PLACED = "__jaxtypes_placed__"
_JIT = "__jaxtypes_jit__"

JAX_JIT_NAME = JITS[JAX_JIT]
"""``jax.jit``'s public name: the jit a function's static positions are for unless told another."""


class Statics:
    """The static positions of a jitted function: indices and names (either may be unknown);
    whether every name is placed among its parameters (``resolved``: where one is not, as behind a
    wrapper typed ``Callable[..., T]``, a positional argument may fill it); and whether the
    function is private (``is_private``): its callers are all read, so a collection
    interface declared static is judged where a call passes one, not at the declaration; and the
    public name of the jit that compiles it (``names.JITS``)."""

    def __init__(
        self,
        nums: Iterable[int],
        names: Iterable[str],
        *,
        private: bool = False,
        placed: bool | None = None,
        jit: str = JAX_JIT_NAME,
    ) -> None:
        self.nums = tuple(sorted(set(nums)))
        self.names = tuple(sorted(set(names)))
        self.private = private
        self.placed = not self.names if placed is None else placed
        self.jit = jit

    def __or__(self, other: Statics) -> Statics:
        return Statics((*self.nums, *other.nums), (*self.names, *other.names), private=self.private, jit=self.jit)

    def holds(self, place: int | str) -> bool:
        """Whether an argument at ``place`` (a position, or a keyword) fills a static position."""
        return place in self.nums if isinstance(place, int) else place in self.names

    def given(self, call: CallExpr) -> list[Expression]:
        """What ``call`` passes at these positions."""
        return [expr for place, expr in placed(call.arg_kinds, call.arg_names, call.args) if self.holds(place)]

    def of(self, function: FuncDef) -> Statics:
        """These positions, for the definition ``function``."""
        return Statics(self.nums, self.names, private=is_private(function), placed=self.placed, jit=self.jit)

    def resolved(self, fn: CallableType | FuncItem) -> Statics:
        """Both spellings completed from the parameters of ``fn`` (a signature, or a function's
        definition where it has none: no annotations), as ``jax.jit`` does."""
        positional = [name for name, kind in zip(fn.arg_names, fn.arg_kinds) if kind.is_positional()]
        size = len(positional)
        nums = [n + size if n < 0 else n for n in self.nums]
        named = [positional[n] for n in nums if 0 <= n < size]
        names = [*self.names, *(name for name in named if name is not None)]
        nums += [i for i, name in enumerate(positional) if name in self.names]
        placed = all(name in fn.arg_names for name in self.names)
        return Statics(nums, names, private=self.private, placed=placed, jit=self.jit)

    def bound(self) -> Statics:
        """The positions once the first argument is bound (a method accessed on an instance)."""
        nums = (n - 1 for n in self.nums if n > 0)
        return Statics(nums, self.names, private=self.private, placed=self.placed, jit=self.jit)

    def attach(self, api: CheckerPluginInterface, instance: Instance) -> Instance:
        """``instance`` carrying these positions in its ``extra_attrs`` (they survive the cache)."""
        int_type = api.named_generic_type("builtins.int", [])
        str_type = api.named_generic_type("builtins.str", [])
        bool_type = api.named_generic_type("builtins.bool", [])
        object_type = api.named_generic_type("builtins.object", [])
        tuple_type = api.named_generic_type("builtins.tuple", [object_type])
        attrs: dict[str, Type] = {
            _NUMS: TupleType([LiteralType(n, int_type) for n in self.nums], tuple_type),
            _NAMES: TupleType([LiteralType(n, str_type) for n in self.names], tuple_type),
            _PRIVATE: LiteralType(self.private, bool_type),
            _PLACED: LiteralType(self.placed, bool_type),
            _JIT: LiteralType(self.jit, str_type),
        }
        return _with_attrs(instance, attrs)

    def attach_to(self, api: CheckerPluginInterface, typ: Type) -> Type:
        """``typ``, a jitted function's type, carrying these positions: an instance in its
        ``extra_attrs`` (``attach``), a signature in its fallback's, which keeps the signature
        declared for it (``-> Callable[[Array], Array]``); anything else as it is."""
        proper = get_proper_type(typ)
        if isinstance(proper, Instance):
            return self.attach(api, proper)
        if isinstance(proper, CallableType):
            return proper.copy_modified(fallback=self.attach(api, proper.fallback))
        return typ

    @staticmethod
    def carried(typ: Type) -> Statics | None:
        """The positions ``attach`` or ``attach_to`` put on ``typ``, if any."""
        proper = get_proper_type(typ)
        proper = proper.fallback if isinstance(proper, CallableType) else proper
        if not isinstance(proper, Instance) or proper.extra_attrs is None:
            return None
        attrs = proper.extra_attrs.attrs
        if _NUMS not in attrs:
            return None
        private, placed = get_proper_type(attrs.get(_PRIVATE)), get_proper_type(attrs.get(_PLACED))
        jit = get_proper_type(attrs.get(_JIT))
        return Statics(
            _literals(attrs[_NUMS]),
            _literals(attrs[_NAMES]),
            private=isinstance(private, LiteralType) and private.value is True,
            placed=isinstance(placed, LiteralType) and placed.value is True,
            jit=jit.value if isinstance(jit, LiteralType) and isinstance(jit.value, str) else JAX_JIT_NAME,
        )


def _literals(typ: Type) -> list[Any]:
    proper = get_proper_type(typ)
    items = proper.items if isinstance(proper, TupleType) else []
    return [item.value for item in map(get_proper_type, items) if isinstance(item, LiteralType)]


def _with_attrs(instance: Instance, attrs: dict[str, Type]) -> Instance:
    """``instance`` with ``attrs`` added to its ``extra_attrs`` (mypy serialises them with it)."""
    carried = instance.extra_attrs or ExtraAttrs({})  # mypy's own, e.g. a partial's signature
    extra = ExtraAttrs({**carried.attrs, **attrs}, carried.immutable | set(attrs), carried.mod_name)
    return Instance(instance.type, instance.args, last_known_value=instance.last_known_value, extra_attrs=extra)


def mark_filtered(api: CheckerPluginInterface, returned: CallableType) -> CallableType:
    """``returned``, a function ``eqx.filter_jit`` returned, marked so in its fallback instance."""
    mark = LiteralType(True, api.named_generic_type("builtins.bool", []))
    return returned.copy_modified(fallback=_with_attrs(returned.fallback, {_FILTERED: mark}))


def is_filtered(typ: Type | None) -> bool:
    """``typ`` is the type of a function ``eqx.filter_jit`` returned (``mark_filtered``)."""
    proper = get_proper_type(typ) if typ is not None else None
    extra = proper.fallback.extra_attrs if isinstance(proper, CallableType) else None
    return extra is not None and _FILTERED in extra.attrs


def filtered_callee(symbol: SymbolTableNode | None) -> bool:
    """The function or variable ``symbol`` names holds what ``eqx.filter_jit`` returned: a
    decorated ``def`` (a method too), or a variable it was assigned to."""
    return is_filtered(named_type(symbol.node if symbol is not None else None))


def carried_callee(symbol: SymbolTableNode | None) -> Statics | None:
    """The static positions the signature of the function or variable ``symbol`` names carries
    (``carried_signature``)."""
    return carried_signature(named_type(symbol.node if symbol is not None else None))


def carried_signature(typ: Type | None) -> Statics | None:
    """The static positions the signature ``typ`` carries (``Statics.attach_to``: what a jitted
    factory returned, typed as it declares); an instance carrying them is called through its
    ``__call__``, hooked by that name."""
    return Statics.carried(typ) if typ is not None and isinstance(get_proper_type(typ), CallableType) else None


def named_type(node: object) -> Type | None:
    """The type of the function or variable a name refers to: a decorated ``def``'s once its
    decorators are applied (what mypy's cache keeps), None where it has none."""
    if isinstance(node, Decorator):
        node = node.var
    return node.type if isinstance(node, (Var, FuncBase)) else None


def below_equinox(fullname: str) -> bool:
    """``fullname`` names something of jax or of a package that cannot import jax
    (``below_jax_package``): none can import equinox, so none is what ``eqx.filter_jit``
    returned (a method call's hook is looked up for every call: these are most of them)."""
    package = fullname.partition(".")[0]
    return package == "jax" or below_jax_package(package)


def jits(typ: Type | None) -> bool:
    """``typ`` is the type of a function a jit returned, which keys compiled code on what its
    static positions (or, filtered, its leaves that are no arrays) are given."""
    return typ is not None and (Statics.carried(typ) is not None or is_filtered(typ))


def is_private(function: FuncDef) -> bool:
    """``function`` is called only from code the checker reads: its name, its class's or a
    module's on its path starts with an underscore (``pkg._src.solve``; a dunder is public). A
    private function a package re-exports is called by code that the checker reads where its
    users run it, and judged at those calls."""
    names = [function.name, *([function.info.name] if function.info else []), *function.fullname.split(".")[:-1]]
    return any(map(private_name, names))


def private_name(name: str) -> bool:
    """``name`` marks what it names private to its module or class (``_solve``; a dunder is
    public)."""
    return name.startswith("_") and not name.endswith("__")


TYPING_PACKAGES = frozenset({"typing_extensions", "mypy_extensions", "_typeshed"})
"""Packages of typing helpers (typeshed's stubs decorate ``builtins.str`` with theirs): none can
import jax."""


def below_jax_package(package: str) -> bool:
    """``package`` is of the standard library, of typing helpers or one jax depends on: it cannot
    import jax."""
    return package in sys.stdlib_module_names or package in JAX_DEPENDENCIES or package in TYPING_PACKAGES
