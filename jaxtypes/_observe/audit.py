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
from typing import Any

from jaxtypes._classes.errors import StaticValueError
from jaxtypes._classes.static_values import ProblemFound, is_array
from jaxtypes._jit.jax_internals import flatten_one_level
from jaxtypes._observe.library_fields import checked, static_fields
from jaxtypes._vocabulary import phrases
from jaxtypes._vocabulary.libraries import JAX_STATIC_CLASS, PYTREE_METADATA

_CONTAINERS = (tuple, list, dict, type(None))


def audit(tree: Any, name: str = "tree") -> list[StaticValueError]:
    """The static values in ``tree`` that break a rule, as errors (not raised), in tree order.

    ``name`` starts each path (``state.model.table``). Use it before a long run, or in a test:
    ``assert not jaxtypes.audit(state, "state")``.
    """
    return list(_audit(tree, name))


def _audit(node: Any, path: str) -> Iterator[StaticValueError]:
    import jax

    found = flatten_one_level(node)
    if found is None:  # a leaf
        return
    children, metadata = found
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield from static_fields(node, path, list(children))
    elif metadata is node:
        yield from checked(node, path, JAX_STATIC_CLASS, type(node))
    elif not isinstance(node, _CONTAINERS) and not _is_nnx(node):
        yield from _arrays_in(metadata, path, type(node))
    for key, child in children:
        yield from _audit(child, path + jax.tree_util.keystr((key,)))


def _arrays_in(metadata: Any, path: str, cls: type) -> Iterator[StaticValueError]:
    import jax

    for keys, leaf in jax.tree_util.tree_flatten_with_path(metadata)[0]:
        if is_array(leaf):
            problem = phrases.array_value(type(leaf).__name__, at=jax.tree_util.keystr(keys) if keys else "")
            found = ProblemFound(problem._replace(fix=PYTREE_METADATA.make_dynamic))
            yield found.as_error(StaticValueError, phrases.library_field(path, PYTREE_METADATA.marker), defined_at=cls)


def _is_nnx(node: Any) -> bool:
    """A flax NNX node (``nnx.Pytree``, whose modules are pytrees from flax 0.11 on)."""
    pytree = getattr(sys.modules.get("flax.nnx"), "Pytree", None)
    return isinstance(pytree, type) and isinstance(node, pytree)
