"""Source: https://github.com/karlotness/powerpax/blob/main/src/powerpax/_tree.py
Library: plain-jax
Correct: a frozen dataclass registered with register_pytree_node whose flatten function returns its wrapped value as the aux data: the wrapper documents that the value must be hashable, and the aux data is that value, so jit compares it by value.
Transcribed: the file as stored; a jitted function taking the wrapper and two calls were added.
"""
import dataclasses
import typing
import jax


T = typing.TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Static(typing.Generic[T]):
    r"""Treat a value as :term:`jax:static` when processing a PyTree.

    This class wraps a `value` and will instruct JAX to treat it as a
    static value during PyTree processing.

    Parameters
    ----------
    value: object
        The object to wrap and treat as static (must be
        :term:`python:hashable`).

    Attributes
    ----------
    value: object
        The wrapped, static value.
    """

    value: T


jax.tree_util.register_pytree_node(
    Static, lambda node: ((), node.value), lambda aux, _: Static(aux)
)


f = jax.jit(lambda s, x: x * s.value)
print(f(Static(2), 1.0))
print(f(Static(2), 2.0))
