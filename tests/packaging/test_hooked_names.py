"""Each full name the plugin hooks (``jaxtypes._vocabulary.names``) names the object it means in
the installed jax and jaxtypes, so a move on either side fails here, not silently in mypy."""

from __future__ import annotations

import importlib
import inspect
import types

import equinox as eqx
import jax
import jax.export  # a submodule older jax does not import with jax
import pytest

import jaxtypes
from jaxtypes._vocabulary import names


def resolve(fullname: str) -> object:
    """The object a full name stands for: the longest importable module, then attributes."""
    parts = fullname.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            found = getattr(found, attribute)
        return found
    raise LookupError(fullname)


def _resolved(fullname: str) -> object:
    """What ``fullname`` stands for, or None where the installed version defines nothing there."""
    try:
        return resolve(fullname)
    except AttributeError:
        return None


JAXTYPES_NAMES = {
    names.STATIC_MARKER: jaxtypes.Static,
    names.DYNAMIC_MARKER: jaxtypes.Dynamic,
    names.STATIC_DECORATOR: jaxtypes.static_dataclass,
    names.PYTREE_DECORATOR: jaxtypes.pytree_dataclass,
    names.FIELD: jaxtypes.field,
    names.TRUSTED_DECORATOR: jaxtypes.trusted_static,
    names.JAXTYPES_JIT: jaxtypes.jit,
    names.JAXTYPES_JITTED: jaxtypes.Jitted,
}


@pytest.mark.parametrize("fullname", sorted(JAXTYPES_NAMES))
def test_jaxtypes_public_names_are_defined_where_the_plugin_looks(fullname: str) -> None:
    assert resolve(fullname) is JAXTYPES_NAMES[fullname]


def test_jax_names_are_where_jax_defines_them() -> None:
    assert resolve(names.JAX_JIT) is jax.jit
    for public in set(names.JITS.values()):  # where jax defines each jit: one of its places today
        found = [_resolved(fullname) for fullname, name in names.JITS.items() if name == public]
        assert resolve(public) in found, public
    assert resolve(names.REGISTER_DATACLASS) is jax.tree_util.register_dataclass
    assert resolve(names.REGISTER_STATIC) is jax.tree_util.register_static
    for fullname in names.PYTREE_REGISTRATIONS:
        assert isinstance(resolve(fullname), types.FunctionType), fullname
    assert isinstance(resolve(names.JAX_JITTED_CALL.rpartition(".")[0]), type)
    assert all(resolve(fullname) is jax.Array for fullname in names.JAX_ARRAY_CLASSES)
    assert resolve(f"{names.JAX_PRIVATE}api.grad") is jax.grad
    assert [resolve(fullname) for fullname in names.TRACING_TRANSFORMS] == [jax.make_jaxpr, jax.eval_shape, jax.vmap]
    assert resolve(names.JAX_EXPORT) is jax.export.export
    assert all(resolve(fullname) is resolve(public) for fullname, public in names.CUSTOM_DERIVATIVES.items())
    differentiating = {_resolved(fullname) for fullname in names.DIFFERENTIATING_TRANSFORMS}
    for public in names.DIFFERENTIATING_TRANSFORMS.values():  # jax.jacobian is jacrev in older jax
        assert resolve(public) in differentiating, public
        assert list(inspect.signature(resolve(public)).parameters)[1] == "argnums", public
    assert resolve(names.TREE_PARTIAL) is jax.tree_util.Partial
    assert {resolve(fullname) for fullname in names.ARRAY_CONVERSIONS} == {jax.numpy.array, jax.numpy.asarray}
    for fullname, flow in names.LAX_TRACED_FUNCTIONS.items():
        assert resolve(fullname) is resolve(flow.public), fullname
        parameters = list(inspect.signature(resolve(fullname)).parameters)
        keywords = {place for place in flow.places if isinstance(place, str)}
        assert {parameters[place] for place in flow.places if isinstance(place, int)} == keywords, fullname


def test_lax_control_flow_keys_its_traces_on_the_function_where_the_table_says() -> None:
    """Outside jit, a second call given the same function traces it again only where the table
    says the control flow keys its cache on nothing the caller gives (``jax.lax.map``)."""
    traces: list[object] = []

    def carry(c: jax.Array) -> jax.Array:
        traces.append(c)
        return c

    def step(c: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
        traces.append(c)
        return c, y

    def body(i: jax.Array, c: jax.Array) -> jax.Array:
        traces.append(c)
        return c

    x = jax.numpy.ones(2)
    runs = {
        "jax.lax.fori_loop": lambda: jax.lax.fori_loop(0, 2, body, x),
        "jax.lax.while_loop": lambda: jax.lax.while_loop(lambda c: c[0] < 0, carry, x),
        "jax.lax.scan": lambda: jax.lax.scan(step, x, x),
        "jax.lax.map": lambda: jax.lax.map(carry, x),
        "jax.lax.cond": lambda: jax.lax.cond(x[0] > 0, carry, carry, x),
        "jax.lax.switch": lambda: jax.lax.switch(x[0].astype(int), [carry, carry], x),
    }
    assert sorted(runs) == sorted(flow.public for flow in names.LAX_TRACED_FUNCTIONS.values())
    for flow in names.LAX_TRACED_FUNCTIONS.values():
        runs[flow.public]()
        first = len(traces)
        runs[flow.public]()
        assert (len(traces) == first) is flow.keyed, flow.public


def test_library_names_are_where_the_libraries_define_them() -> None:
    assert resolve(names.EQUINOX_MODULE) is eqx.Module
    if hasattr(jax.tree, "static"):  # jax.tree.static() is younger than the oldest jax supported
        assert resolve(names.TREE_STATIC) is jax.tree.static
