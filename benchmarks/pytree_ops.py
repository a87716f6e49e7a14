"""What a training loop pays for a pytree class, against jax's own ``register_dataclass``.

One class (8 array fields, 2 static fields: an int and a tuple of ints) defined alike with
``jax.tree_util.register_dataclass``, ``jaxtypes.pytree_dataclass`` and, where installed,
``flax.struct``, ``equinox.Module`` and ``jax_dataclasses``. For each: a call of a jitted
function taking the instance, ``jax.tree_util.tree_map`` over it, ``tree_flatten`` then
``tree_unflatten``, and construction. Every variant and operation is timed in each round,
interleaved in one process, so machine noise hits them alike; the best round is printed, as
microseconds and as a ratio to ``register_dataclass``.

    python benchmarks/pytree_ops.py [--rounds 7] [--calls 2000] [--clock cpu|wall]
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from timing import best_of_interleaved, parse_options, seconds_per_call

from jaxtypes import Static, pytree_dataclass

ARRAYS = tuple(f"x{i}" for i in range(8))
STATICS = {"steps": int, "axes": tuple[int, ...]}
STATIC_VALUES = (3, (0, 1))
BASELINE = "jax register_dataclass"


def define(
    name: str,
    decorate: Callable[[type], type],
    static: Callable[[Any], Any] = lambda t: t,
    static_field: Callable[[], Any] | None = None,
    base: type = object,
) -> type:
    """The benchmark class: array fields, then static fields typed ``static(T)``."""
    annotations: dict[str, Any] = dict.fromkeys(ARRAYS, jax.Array)
    annotations.update({field: static(t) for field, t in STATICS.items()})
    namespace: dict[str, Any] = {"__annotations__": annotations, "__module__": __name__}
    if static_field is not None:
        namespace.update({field: static_field() for field in STATICS})
    return decorate(type(name, (base,), namespace))


def register_dataclass(cls: type) -> type:
    cls = dataclasses.dataclass(frozen=True, eq=False)(cls)
    return jax.tree_util.register_dataclass(cls, data_fields=list(ARRAYS), meta_fields=list(STATICS))


def variants() -> dict[str, type]:
    """Each installed library's version of the class."""
    found = {
        BASELINE: define("Plain", register_dataclass),
        "jaxtypes pytree_dataclass": define(
            "Typed",
            pytree_dataclass,
            static=lambda t: Static[t],  # type: ignore[misc, valid-type]
        ),
    }
    try:
        import flax.struct

        static_field = lambda: flax.struct.field(pytree_node=False)  # type: ignore[no-untyped-call]  # noqa: E731
        found["flax.struct"] = define("Flax", flax.struct.dataclass, static_field=static_field)
    except ImportError:
        pass
    try:
        import equinox

        found["equinox.Module"] = define(
            "Eqx", lambda cls: cls, static_field=lambda: equinox.field(static=True), base=equinox.Module
        )
    except ImportError:
        pass
    try:
        import jax_dataclasses

        static = lambda t: jax_dataclasses.Static[t]  # type: ignore[misc, valid-type]  # noqa: E731
        found["jax_dataclasses"] = define("Jdc", jax_dataclasses.pytree_dataclass, static=static)
    except ImportError:
        pass
    return found


def operations(cls: type) -> dict[str, Callable[[], Any]]:
    """The four timed operations on an instance of ``cls``, each a function of no argument."""
    arrays = [jnp.full(4, float(i)) for i in range(len(ARRAYS))]
    instance = cls(*arrays, *STATIC_VALUES)
    jitted = jax.jit(lambda tree: tree.x0 + tree.x7)
    identity = lambda leaf: leaf  # noqa: E731

    def flatten_unflatten() -> Any:
        leaves, treedef = jax.tree_util.tree_flatten(instance)
        return jax.tree_util.tree_unflatten(treedef, leaves)

    assert len(jax.tree_util.tree_leaves(instance)) == len(ARRAYS), f"{cls.__name__}: statics are leaves"
    return {
        "jit call": lambda: jitted(instance),
        "tree_map": lambda: jax.tree_util.tree_map(identity, instance),
        "flatten + unflatten": flatten_unflatten,
        "construction": lambda: cls(*arrays, *STATIC_VALUES),
    }


def main() -> None:
    options, clock = parse_options(__doc__.splitlines()[0], rounds=7)

    cases = {name: operations(cls) for name, cls in variants().items()}
    columns = list(cases[BASELINE])
    best = best_of_interleaved(
        {
            (name, column): functools.partial(seconds_per_call, ops[column], options.calls, clock)
            for column in columns
            for name, ops in cases.items()
        },
        options.rounds,
    )

    print(
        f"jax {jax.__version__}; {options.clock} time, best of {options.rounds} interleaved rounds"
        f" x {options.calls} calls"
    )
    print(f"{'':<28}" + "".join(f"{column:>22}" for column in columns))
    for name in cases:
        cells = [f"{best[name, c] * 1e6:.2f} us {best[name, c] / best[BASELINE, c]:.2f}x" for c in columns]
        print(f"{name:<28}" + "".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
