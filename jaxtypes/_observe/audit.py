"""``jaxtypes.audit``: every static value in a pytree that breaks a rule, with its path.

It walks any pytree one node at a time, as jax flattens it (flax and equinox modules, classes
registered with ``jax.tree_util``, jaxtypes classes, nested containers), and checks the static
part of each node with the value rules of ``static_values``:

- a dataclass node's static fields (``library_fields``, the twin of the plugin's);
- an object registered with ``register_static``, as a whole;
- the metadata of any other node, for arrays only: its meaning is the node's own business
  (flax NNX keeps dicts there by design).

A lambda or local function is reported where it is a static field's value itself: the code that
builds the tree made it, and makes a new one each time. Inside another value (optax's
``GradientTransformation`` holds its own closures) the value comes with the object jit keeps
seeing as long as the tree carries it.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from collections.abc import Collection
from typing import Any, NamedTuple

from jaxtypes._classes.errors import StaticValueError
from jaxtypes._classes.static_values import ProblemFound, is_array
from jaxtypes._jit.jax_internals import flatten_one_level
from jaxtypes._observe.library_fields import checked, static_fields
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import JAX_STATIC_CLASS, PYTREE_METADATA
from jaxtypes._vocabulary.rules import OPT_IN_CODES

_CONTAINERS = (tuple, list, dict, type(None))


def audit(tree: Any, name: str = "tree", *, select: Collection[str] = ()) -> list[StaticValueError]:
    """The static values in ``tree`` that break a rule, as errors (not raised), in tree order.

    ``name`` starts each path (``state.model.table``). Use it before a long run, or in a test:
    ``assert not jaxtypes.audit(state, "state")``. A list or an identity-hashed object in pytree
    metadata is right as long as nobody changes it in place or builds it again, which one look
    at a value cannot tell: such findings have opt-in codes (``static-unhashable-strict``,
    ``static-identity-hash-strict``, ``static-fresh-callable-strict``), reported where
    ``select`` names them; so has an array in metadata (``static-dynamic-child-strict``), which
    fails only where another instance with its own arrays meets jit after this one, but in an
    equinox module, which warns of it itself.
    """
    return [error for error in _audit(tree, name) if error.code not in OPT_IN_CODES or error.code in select]


def audit_jit_argument(tree: Any, name: str) -> list[StaticValueError]:
    """``audit`` of a tree a jitted call is given: an array in its metadata fails there as soon as
    another instance with its own arrays follows it, so it is reported by default."""
    return [error for error in _audit(tree, name, meets_jit=True) if error.code not in OPT_IN_CODES]


def _audit(tree: Any, path: str, meets_jit: bool = False) -> Iterator[StaticValueError]:
    for node in nodes(tree, path):
        if dataclasses.is_dataclass(node.value) and not isinstance(node.value, type):
            yield from static_fields(node.value, node.path, node.children, node.metadata, meets_jit)
        elif node.metadata is node.value:
            yield from checked(node.value, node.path, JAX_STATIC_CLASS, type(node.value), meets_jit)
        elif node.holds_metadata:
            yield from _arrays_in(node.metadata, node.path, type(node.value), meets_jit)


class Node(NamedTuple):
    """One node of a pytree, as jax flattens it one level: where it is, the node, its children
    with their keys, and its metadata (aux data)."""

    path: str
    value: Any
    children: list[tuple[Any, Any]]
    metadata: Any

    @property
    def holds_metadata(self) -> bool:
        """Whether the metadata is the node's own data (not a container's keys, nor flax NNX's
        graph, whose dicts are there by design)."""
        return not isinstance(self.value, _CONTAINERS) and not _is_nnx(self.value)


def nodes(tree: Any, path: str) -> Iterator[Node]:
    """Every node of ``tree`` (not its leaves), in tree order, ``path`` starting each path."""
    import jax

    found = flatten_one_level(tree)
    if found is None:  # a leaf
        return
    children, metadata = found
    yield Node(path, tree, children, metadata)
    for key, child in children:
        yield from nodes(child, path + jax.tree_util.keystr((key,)))


def described_trees(value: Any, path: str, depth: int = 4) -> Iterator[tuple[str, Any]]:
    """The trees that the ``PyTreeDef``s in a static value describe, by path, rebuilt with
    ``None`` for their leaves: their metadata is in the treedef, which jit compares at every call
    (equinox's ``filter_jit`` passes the static half of its arguments so). A tree whose
    unflattening refuses ``None`` leaves is left out."""
    import jax

    if isinstance(value, jax.tree_util.PyTreeDef):
        try:
            yield path, jax.tree_util.tree_unflatten(value, [None] * value.num_leaves)
        except Exception:  # its own unflatten checks its leaves
            return
    elif depth > 0 and isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from described_trees(item, f"{path}[{index}]", depth - 1)
    elif depth > 0 and isinstance(value, dict):
        for key, item in value.items():
            yield from described_trees(item, f"{path}[{key!r}]", depth - 1)


def _arrays_in(metadata: Any, path: str, cls: type, meets_jit: bool) -> Iterator[StaticValueError]:
    """The arrays in a hand-written flatten's aux data, as ``library_fields.checked`` judges one."""
    import jax

    for keys, leaf in jax.tree_util.tree_flatten_with_path(metadata)[0]:
        if is_array(leaf):
            problem = phrases.array_value(type(leaf).__name__, at=jax.tree_util.keystr(keys) if keys else "")
            problem = problem._replace(fix=PYTREE_METADATA.make_dynamic)
            found = ProblemFound(problem if meets_jit else phrases.unobserved(problem))
            yield found.as_error(StaticValueError, phrases.library_field(path, PYTREE_METADATA.marker), defined_at=cls)


def _is_nnx(node: Any) -> bool:
    """A flax NNX node (``nnx.Pytree``, whose modules are pytrees from flax 0.11 on)."""
    pytree = getattr(sys.modules.get("flax.nnx"), "Pytree", None)
    return isinstance(pytree, type) and isinstance(node, pytree)
