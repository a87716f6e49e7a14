"""Trusted static types at run time: JAX's interned classes, equinox and flax modules, and classes
users vouch for with ``@jaxtypes.trusted_static``."""

from __future__ import annotations

import subprocess
import sys
from typing import Any, Optional

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import pytest
from jax.sharding import AbstractMesh, Mesh, PartitionSpec

import jaxtypes as jt
from jaxtypes import Static


@jt.static_dataclass
class Model:
    """The everyday static config of sharded code."""

    mesh: Optional[Mesh] = None
    spec: PartitionSpec = PartitionSpec()
    device: Optional[jax.Device] = None
    abstract: Optional[AbstractMesh] = None
    anything: Any = None


@jt.trusted_static
class Backend:
    """A user class whose instances are singletons."""


class GpuBackend(Backend):
    pass


class Plain:
    pass


def build() -> Model:
    return Model(jax.make_mesh((2, 2), ("x", "y")), PartitionSpec("x", None), jax.devices()[1])


def test_a_config_of_interned_jax_values_is_accepted_and_interned() -> None:
    assert build() is build()
    assert build() is not Model(jax.make_mesh((4,), ("x",)), PartitionSpec("x", None), jax.devices()[1])


@pytest.mark.parametrize(
    "value",
    [
        lambda: jax.make_mesh((2, 2), ("x", "y")),
        lambda: AbstractMesh((2, 2), ("x", "y")),
        lambda: PartitionSpec("x"),
        lambda: jax.devices()[0],
        lambda: Backend(),
        lambda: GpuBackend(),
    ],
    ids=["Mesh", "AbstractMesh", "PartitionSpec", "Device", "trusted", "trusted-subclass"],
)
def test_trusted_values_are_accepted_in_any_field(value: Any) -> None:
    item = value()
    assert Model(anything=item).anything is item


def test_trusted_classes_are_accepted_as_field_types() -> None:
    @jt.static_dataclass
    class Uses:
        backend: Backend
        gpu: Optional[GpuBackend] = None

    assert Uses(Backend()).backend is not None


def test_an_untrusted_identity_hashed_value_is_still_refused() -> None:
    with pytest.raises(jt.StaticValueError, match=r"Model\.anything holds a Plain, which hashes by identity"):
        Model(anything=Plain())


def test_trusted_static_returns_the_class_and_covers_extension_classes() -> None:
    # In a fresh interpreter: vouching is process-wide, and a lock's class refuses attributes.
    code = (
        "import _thread, jaxtypes as jt\n"
        "from typing import Any\n"
        "@jt.static_dataclass\n"
        "class C:\n"
        "    lock: Any\n"
        "try:\n"
        "    C(_thread.allocate_lock())\n"
        "except jt.StaticValueError as e:\n"
        "    print(e.code)\n"
        "assert jt.trusted_static(_thread.LockType) is _thread.LockType\n"
        "C(_thread.allocate_lock())\n"
        "print('accepted')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["static-identity-hash", "accepted"]


class EqxConfig(eqx.Module):
    size: int
    weights: Any = None


class FlaxConfig(nn.Module):
    features: int

    def __call__(self, x: jax.Array) -> jax.Array:
        return x


def test_equinox_and_flax_modules_are_static_values_by_their_own_hash() -> None:
    @jt.static_dataclass
    class Holder:
        eqx_config: EqxConfig
        flax_config: FlaxConfig

    first = Holder(EqxConfig(3), FlaxConfig(4))
    assert first is Holder(EqxConfig(3), FlaxConfig(4))
    assert first is not Holder(EqxConfig(3), FlaxConfig(5))


def test_an_equinox_module_holding_an_array_is_refused_at_the_field() -> None:
    with pytest.raises(jt.StaticValueError, match=r"Model\.anything\.weights holds an array") as error:
        Model(anything=EqxConfig(3, jnp.ones(2)))
    assert error.value.code == "static-dynamic-child"


def test_a_named_tuple_is_checked_item_by_item() -> None:
    import optax

    with pytest.raises(jt.StaticValueError, match=r"Model\.anything\.init holds the local function") as error:
        Model(anything=optax.adam(1e-3))
    assert error.value.code == "static-fresh-callable"


def test_jit_compiles_once_for_rebuilt_meshes_and_specs() -> None:
    @jt.jit
    def shard(x: jax.Array, model: Model, spec: Static[PartitionSpec]) -> jax.Array:
        return x * 2

    for _ in range(3):
        shard(jnp.ones(4), build(), PartitionSpec("x"))
    assert len(shard.compiles) == 1
