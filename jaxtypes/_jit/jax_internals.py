"""The runtime's one door to jax beyond its public API.

The runtime needs four things jax keeps private or has added late: the coordination client of a
job of several processes, whether a class is a pytree node (before ``is_node`` existed), one
level of a pytree with its keys, and the size of a jitted function's cache. A jax release that
moves any of them changes this file alone
(the names the plugin hooks are strings in ``jaxtypes._vocabulary.names``); CI runs the tests on
the oldest and the newest jax allowed (``noxfile.py``). Imports jax only inside its functions.
"""

from __future__ import annotations

import sys
from typing import Any


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


def cache_size(jitted: Any) -> int:
    """How many entries a function ``jax.jit`` returned holds in its cache (``_cache_size``,
    private): it grows by one at each compile, so a call that leaves it unchanged reused code."""
    return int(jitted._cache_size())
