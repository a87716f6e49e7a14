"""The one door to jax beyond its public API, for the runtime and for the mypy plugin.

The plugin sees jax's functions and classes by the full names mypy resolves them to, which are
where jax defines them (``jax._src...``), not where users import them from; those names are
here as strings. The runtime needs three things jax keeps private or has added late: the
coordination client of a job of several processes, whether a class is a pytree node (before
``is_node`` existed), and one level of a pytree with its keys. A jax release that moves any of them changes this file alone; CI runs the
tests on the oldest and the newest jax allowed (``noxfile.py``).

Imports jax only inside the functions, so the plugin (which must never import jax) can read the
names.
"""

from __future__ import annotations

import sys
from typing import Any

JIT = "jax._src.api.jit"
"""``jax.jit``."""

JITTED_CALL = "jax._src.pjit.JitWrapped.__call__"
"""Calling what ``jax.jit`` returns."""

ARRAY_CLASSES = frozenset({"jax._src.basearray.Array", "jax.Array", "numpy.ndarray"})
"""``jax.Array`` (where jax defines it, and its public alias) and ``numpy.ndarray``."""

_TREE_UTIL = "jax._src.tree_util"

REGISTER_DATACLASS = f"{_TREE_UTIL}.register_dataclass"
REGISTER_STATIC = f"{_TREE_UTIL}.register_static"
TREE_STATIC = "jax._src.tree.static"
"""``jax.tree.static()``, which marks a ``register_dataclass`` field static."""

PYTREE_CLASS_DECORATORS = frozenset(
    f"{_TREE_UTIL}.{name}"
    for name in (
        "register_pytree_node_class",
        "register_pytree_with_keys_class",
        "register_dataclass",
        "register_static",
    )
)
"""``jax.tree_util``'s functions that register a class as a pytree, used as decorators."""

PYTREE_REGISTRATIONS = frozenset(
    {*PYTREE_CLASS_DECORATORS, f"{_TREE_UTIL}.register_pytree_node", f"{_TREE_UTIL}.register_pytree_with_keys"}
)
"""Every ``jax.tree_util`` function that registers a class as a pytree."""


def is_registered_node(cls: type) -> bool:
    """Whether jax's default registry flattens instances of ``cls`` as a pytree node (not as a
    leaf); False where jax is not imported."""
    jax = sys.modules.get("jax")
    if jax is None:
        return False
    registry = jax.tree_util.default_registry
    if hasattr(registry, "is_node"):
        return bool(registry.is_node(cls))
    # jax < 0.7 has no is_node: its registry of Python-registered classes, and namedtuples.
    from jax._src.tree_util import _registry

    return cls in _registry or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def flatten_one_level(node: Any) -> tuple[list[tuple[Any, Any]], Any] | None:
    """A node's children with their keys, and its metadata (aux data); None for a leaf. (Through
    ``tree_flatten_with_path`` that stops below the node, and the treedef's ``node_data``:
    ``flatten_one_level_with_keys`` is younger than the oldest jax jaxtypes supports.)"""
    import jax

    treedef: Any  # node_data is missing from some jaxlib versions' stubs
    children, treedef = jax.tree_util.tree_flatten_with_path(node, is_leaf=lambda child: child is not node)
    data = treedef.node_data()  # None for a leaf (a node with no children is no leaf)
    return None if data is None else ([(keys[0], child) for keys, child in children], data[1])


def coordination_state() -> Any:
    """jax's state of a job of several processes (``client``, ``process_id``, ``num_processes``):
    jax exposes the coordination client only as ``jax._src.distributed.global_state``, as
    ``jax.experimental.multihost_utils`` uses it."""
    from jax._src import distributed

    return distributed.global_state
