"""The public classes users pass as static values, each with two equal values built the normal way.

``PRELUDE`` is a module both sides read: the runtime imports it and evaluates each case's
``build`` and ``annotation`` in it; the plugin checks it with a static class that has one field
per case, annotated with the case's ``annotation``.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    """One class: how a field is annotated with it, and how a user builds a value of it."""

    annotation: str
    build: str


PRELUDE = """\
import datetime
import enum
import fractions
import functools
import pathlib
from typing import NamedTuple

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import lax


class Color(enum.Enum):
    RED = 1


class Pair(NamedTuple):
    size: int
    name: str


class EqxConfig(eqx.Module):
    size: int
    name: str


class FlaxConfig(nn.Module):
    features: int

    def __call__(self, x: jax.Array) -> jax.Array:
        return x


def double(x: int) -> int:
    return 2 * x
"""

CASES: list[Case] = [
    Case("jax.sharding.Mesh", 'jax.make_mesh((2, 2), ("x", "y"))'),
    Case("jax.sharding.AbstractMesh", 'jax.sharding.AbstractMesh((2, 2), ("x", "y"))'),
    Case("jax.sharding.PartitionSpec", 'jax.sharding.PartitionSpec("x", None)'),
    Case(
        "jax.sharding.NamedSharding",
        'jax.sharding.NamedSharding(jax.make_mesh((2, 2), ("x", "y")), jax.sharding.PartitionSpec("x"))',
    ),
    Case("jax.sharding.SingleDeviceSharding", "jax.sharding.SingleDeviceSharding(jax.devices()[0])"),
    Case("jax.sharding.AxisType", "jax.sharding.AxisType.Explicit"),
    Case("jax.Device", "jax.devices()[0]"),
    Case("jax.ShapeDtypeStruct", "jax.ShapeDtypeStruct((2, 3), jnp.float32)"),
    Case("jax.tree_util.PyTreeDef", 'jax.tree_util.tree_structure({"a": 1, "b": (2, 3)})'),
    Case("jax.tree_util.Partial", "jax.tree_util.Partial(double, 1)"),
    Case("lax.Precision", 'lax.Precision("highest")'),
    Case("lax.GatherScatterMode", 'lax.GatherScatterMode.from_any("clip")'),
    Case("lax.RandomAlgorithm", "lax.RandomAlgorithm.RNG_DEFAULT"),
    Case("lax.RoundingMethod", "lax.RoundingMethod.TO_NEAREST_EVEN"),
    Case("lax.FftType", "lax.FftType.FFT"),
    Case("lax.DotAlgorithmPreset", "lax.DotAlgorithmPreset.DEFAULT"),
    Case(
        "lax.ConvDimensionNumbers",
        'lax.conv_dimension_numbers((1, 1, 4, 4), (1, 1, 3, 3), ("NCHW", "OIHW", "NCHW"))',
    ),
    Case(
        "lax.GatherDimensionNumbers",
        "lax.GatherDimensionNumbers(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,))",
    ),
    Case(
        "lax.ScatterDimensionNumbers",
        "lax.ScatterDimensionNumbers(update_window_dims=(0,), inserted_window_dims=(1,), "
        "scatter_dims_to_operand_dims=(1,))",
    ),
    Case("np.dtype", 'jnp.dtype("bfloat16")'),
    Case("np.dtype", 'np.dtype("float32")'),
    Case("optax.GradientTransformation", "optax.adam(1e-3)"),
    Case("EqxConfig", 'EqxConfig(3, "relu")'),
    Case("FlaxConfig", "FlaxConfig(features=3)"),
    Case("Color", "Color.RED"),
    Case("Pair", 'Pair(3, "relu")'),
    Case("functools.partial", "functools.partial(double, 1)"),
    Case("fractions.Fraction", "fractions.Fraction(1, 3)"),
    Case("pathlib.Path", 'pathlib.Path("data/run.csv")'),
    Case("datetime.datetime", "datetime.datetime(2024, 1, 2, 3, 4)"),
    Case("datetime.timedelta", "datetime.timedelta(hours=3)"),
]
