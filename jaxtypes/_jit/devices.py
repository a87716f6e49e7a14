"""Turn ``jaxtypes.jit``'s ``device=`` into the sharding that pins a computation to it.

``jax.jit``'s own ``device=`` and ``backend=`` are deprecated; a sharding given as both
``in_shardings`` and ``out_shardings`` moves every input (committed or not) to the target and
leaves every output there, which is what ``device=`` promises.
"""

from __future__ import annotations

from typing import NoReturn, Union

import jax
from jax.sharding import Sharding, SingleDeviceSharding

from jaxtypes._classes.errors import DeviceNotFoundError
from jaxtypes._vocabulary.phrases import Problem
from jaxtypes._vocabulary.rules import JIT_DEVICE

DeviceSpec = Union[jax.Device, str, Sharding]
"""A device, a platform name (``"cpu"``, ``"gpu"``, ``"tpu"``) or a sharding."""


def resolve_device(spec: DeviceSpec, defined_at: object = None) -> Sharding:
    """The sharding that places a computation on ``spec``; a platform means its first device.

    Raises ``DeviceNotFoundError`` listing the devices that exist when ``spec`` names a
    platform or device this process does not have.
    """
    if isinstance(spec, Sharding):
        return spec
    if isinstance(spec, jax.Device):
        if spec not in jax.devices(spec.platform):
            _not_found(f"device={spec!r}", "is not a device of this process", defined_at)
        return SingleDeviceSharding(spec)
    if isinstance(spec, str):
        try:
            return SingleDeviceSharding(jax.devices(spec)[0])
        except RuntimeError:
            _not_found(f"device={spec!r}", "names a platform this process does not have", defined_at)
    raise TypeError(
        f"device= takes a jax.Device, a platform name such as 'cpu', or a jax.sharding.Sharding; "
        f"got {type(spec).__qualname__}"
    )


def _not_found(where: str, what: str, defined_at: object) -> NoReturn:
    present = ", ".join(f"{d.platform}:{d.id}" for d in jax.devices())
    problem = Problem(JIT_DEVICE, f"{what} (devices present: {present})")
    raise DeviceNotFoundError(problem, where, defined_at=defined_at)
