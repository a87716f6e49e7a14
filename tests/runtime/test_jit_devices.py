"""jaxtypes.jit(device=...): every accepted form places the computation and outputs on the target."""

import warnings

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

import jaxtypes
from jaxtypes import DeviceNotFoundError, Static

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning")


def add(x: jax.Array, k: Static[int]) -> jax.Array:
    return x + k


@pytest.fixture(autouse=True)
def four_devices() -> None:
    assert len(jax.devices()) == 4, "tests/conftest.py should give four virtual CPU devices"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (lambda: jax.devices()[2], lambda: {jax.devices()[2]}),
        (lambda: "cpu", lambda: {jax.devices("cpu")[0]}),
        (lambda: SingleDeviceSharding(jax.devices()[3]), lambda: {jax.devices()[3]}),
    ],
    ids=["device", "platform", "sharding"],
)
def test_output_lives_exactly_on_the_target(spec, expected) -> None:  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        jitted = jaxtypes.jit(add, device=spec())
        committed_elsewhere = jax.device_put(jnp.ones(3), jax.devices()[1])
        for x, want in ((committed_elsewhere, [2.0, 2.0, 2.0]), (jnp.ones(3), [2.0, 2.0, 2.0]), (1.0, 2.0)):
            out = jitted(x, 1)
            assert out.devices() == expected()
            assert out.tolist() == want


def test_multi_device_sharding_is_used_as_given() -> None:
    mesh = jax.make_mesh((4,), ("d",), devices=jax.devices())
    sharding = NamedSharding(mesh, PartitionSpec("d"))
    jitted = jaxtypes.jit(add, device=sharding)
    out = jitted(jnp.arange(8.0), 1)
    assert out.sharding == sharding
    assert out.tolist() == [float(i + 1) for i in range(8)]


@pytest.mark.parametrize("platform", ["gpu", "tpu"])
def test_absent_platform_lists_devices_present(platform: str) -> None:
    with pytest.raises(DeviceNotFoundError, match=r"devices present: cpu:0, cpu:1, cpu:2, cpu:3") as excinfo:
        jaxtypes.jit(add, device=platform)
    assert excinfo.value.code == "jit-device"
    assert f"device={platform!r}" in str(excinfo.value)


def test_device_and_explicit_shardings_conflict() -> None:
    with pytest.raises(TypeError, match="not both"):
        jaxtypes.jit(add, device="cpu", in_shardings=SingleDeviceSharding(jax.devices()[0]))


def test_device_of_wrong_kind_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="device= takes"):
        jaxtypes.jit(add, device=0)  # type: ignore[arg-type]
