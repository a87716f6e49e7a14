"""Trusted static types in the plugin: classes whose identity is their value.

The twin of the runtime's ``jaxtypes/_classes/trusted_types.py``: the built-in table (``jaxtypes._vocabulary.names.TRUSTED_TYPES``: JAX's
interned classes, equinox's and flax's modules), the classes named in the
``trusted_static_types`` setting, and classes decorated ``@jaxtypes.trusted_static`` (recorded in
their metadata, so other modules see it from the cache) are accepted in static positions although
they hash by identity or are not frozen dataclasses; so are their subclasses.

Names are public paths (``jax.sharding.PartitionSpec``) or defining ones; each is looked up in
the modules mypy has loaded, so a re-exported class is recognised under the name mypy gives it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
import os
import sys

from mypy.nodes import TypeAlias, TypeInfo
from mypy.options import Options
from mypy.plugin import CheckerPluginInterface, ClassDefContext, SemanticAnalyzerPluginInterface
from mypy.types import Instance, get_proper_type

from jaxtypes._vocabulary.names import TRUSTED_TYPES, VALUE_TYPES
from jaxtypes._vocabulary.settings import Settings, SettingsError, read_settings
from mypy_plugin.metadata import TrustedStatic
from mypy_plugin.mypy_internals import lookup


def decorator_hook(ctx: ClassDefContext) -> None:
    """``@jaxtypes.trusted_static``: remember it in the class's metadata."""
    TrustedStatic().write(ctx.cls.info)


def is_trusted(info: TypeInfo, api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> bool:
    """Whether ``info`` or a base is a trusted static type, or ``info`` an identity token."""
    if holds_no_state(info):
        return True
    names = _trusted_fullnames(api)
    return any(TrustedStatic.read(base) is not None or base.fullname in names for base in info.mro)


def holds_no_state(info: TypeInfo) -> bool:
    """The twin of ``jaxtypes._classes.trusted_types.holds_no_state``: every class but ``object`` declares
    ``__slots__``, empty or only ``__weakref__``."""
    bases = info.mro[:-1]
    return bool(bases) and all(base.slots is not None and base.slots <= {"__weakref__"} for base in bases)


def hashes_its_fields(info: TypeInfo, api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> bool:
    """Whether ``info`` or a base is one of the libraries' value classes (``VALUE_TYPES``: an
    equinox or flax module), whose hash and equality are over its fields, so that what its
    fields hold decides whether it hashes (the twin of the runtime's ``_own_hash_key``)."""
    names = _resolved(VALUE_TYPES, api)
    return any(base.fullname in names for base in info.mro)


def _trusted_fullnames(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> set[str]:
    return _resolved((*TRUSTED_TYPES, *settings(api.options).trusted_static_types), api)


def _resolved(qualified: Iterable[str], api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> set[str]:
    """Each name, and the full name of the class it resolves to (``equinox.Module`` is defined in
    ``equinox._module._module``)."""
    names = set()
    for name in qualified:
        names.add(name)
        symbol = lookup(name, api)
        node = symbol.node if symbol is not None else None
        if isinstance(node, TypeAlias):  # PartitionSpec = P
            target = get_proper_type(node.target)
            node = target.type if isinstance(target, Instance) else None
        if isinstance(node, TypeInfo):
            names.add(node.fullname)
    return names


def settings(options: Options) -> Settings:
    """The jaxtypes settings of the configuration file mypy reads; exits with status 2, as mypy
    does on a configuration error, if they are not valid."""
    path = options.config_file
    if path is None or not os.path.isfile(path):
        return Settings()
    stat = os.stat(path)
    try:
        return _read(path, stat.st_mtime_ns, stat.st_size)
    except SettingsError as error:
        sys.stderr.write(f"error: {error}\n")
        raise SystemExit(2) from None


@functools.lru_cache(maxsize=8)
def _read(path: str, mtime_ns: int, size: int) -> Settings:
    """``read_settings``, once per version of the file (the key's mtime and size)."""
    return read_settings(path)
