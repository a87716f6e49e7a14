"""Source: https://github.com/patrick-kidger/equinox/blob/7c447d43916256024be544465b29a8df68e7a8fd/equinox/nn/_conv.py
Library: equinox
Correct: every field of Conv but weight and bias is declared field(static=True), including the strings padding ('SAME', 'SAME_LOWER', 'VALID' or a tuple of pairs) and padding_mode ('ZEROS', 'REFLECT', 'REPLICATE', 'CIRCULAR'), so they go into the Module's tree structure, hashable and compared by value, and the jitted function reads them at trace time to pick the padding; bias is an array or, with use_bias=False, None, a pytree with no leaves. A Conv therefore passes through plain jax.jit in a traced position: its only leaves are arrays.
Transcribed: _ntuple, _padding_init, _padding_mode_init and Conv from the file (docstrings shortened); all_sequences, named_scope (jax.named_scope) and default_init copied from equinox/nn/_misc.py at the same commit, default_floating_dtype() replaced by jnp.float32, the relative imports of field and Module replaced by `from equinox import field, Module`, and the numpy import (used by ConvTranspose only) cut; a jitted apply function, two convolutions (REFLECT without bias, CIRCULAR with bias) and calls were added.
"""
import itertools as it
import math
from collections.abc import Callable, Sequence
from typing import Any, cast, TypeVar

import jax
import jax.lax as lax
import jax.numpy as jnp
import jax.random as jrandom
from jaxtyping import Array, PRNGKeyArray

from equinox import field, Module


_T = TypeVar("_T")


def all_sequences(x) -> bool:
    return all(isinstance(xi, Sequence) for xi in x)


named_scope = jax.named_scope


def default_init(
    key: PRNGKeyArray, shape: tuple[int, ...], dtype: Any, lim: float
) -> jax.Array:
    if jnp.issubdtype(dtype, jnp.complexfloating):
        real_dtype = jnp.finfo(dtype).dtype
        rkey, ikey = jrandom.split(key, 2)
        real = jrandom.uniform(rkey, shape, real_dtype, minval=-lim, maxval=lim)
        imag = jrandom.uniform(ikey, shape, real_dtype, minval=-lim, maxval=lim)
        return real.astype(dtype) + 1j * imag.astype(dtype)
    else:
        return jrandom.uniform(key, shape, dtype, minval=-lim, maxval=lim)


def _ntuple(n: int) -> Callable[[_T | Sequence[_T]], tuple[_T, ...]]:
    def parse(x: _T | Sequence[_T]) -> tuple[_T, ...]:
        if isinstance(x, Sequence):
            if len(x) == n:
                return tuple(x)
            else:
                raise ValueError(
                    f"Length of {x} (length = {len(x)}) is not equal to {n}"
                )
        else:
            return tuple(it.repeat(x, n))

    return parse


def _padding_init(
    padding: str | int | Sequence[int] | Sequence[tuple[int, int]],
    num_spatial_dims: int,
) -> str | tuple[tuple[int, int], ...]:
    if isinstance(padding, str):
        padding = padding.upper()
        if padding not in ("SAME", "SAME_LOWER", "VALID"):
            raise ValueError(
                "`padding` string must be `'SAME'`, `'SAME_LOWER'`, or `'VALID'`."
            )
    elif isinstance(padding, int):
        padding = tuple((padding, padding) for _ in range(num_spatial_dims))
    elif isinstance(padding, Sequence) and len(padding) == num_spatial_dims:
        if all_sequences(padding):
            padding = tuple(padding)  # pyright: ignore
        else:
            padding = tuple((p, p) for p in padding)
    else:
        raise ValueError(
            "`padding` must either be a string, an int, or tuple of length "
            f"{num_spatial_dims} containing ints or tuples of length 2."
        )
    return padding  # pyright: ignore


def _padding_mode_init(padding_mode: str) -> str:
    padding_mode = padding_mode.upper()
    if padding_mode not in ("ZEROS", "REFLECT", "REPLICATE", "CIRCULAR"):
        raise ValueError(
            "`padding_mode` must be `'ZEROS'`, `'REFLECT'`, `'REPLICATE'`, or "
            "`'CIRCULAR'`."
        )
    return padding_mode


class Conv(Module):
    """General N-dimensional convolution."""

    num_spatial_dims: int = field(static=True)
    weight: Array
    bias: Array | None
    in_channels: int = field(static=True)
    out_channels: int = field(static=True)
    kernel_size: tuple[int, ...] = field(static=True)
    stride: tuple[int, ...] = field(static=True)
    padding: str | tuple[tuple[int, int], ...] = field(static=True)
    dilation: tuple[int, ...] = field(static=True)
    groups: int = field(static=True)
    use_bias: bool = field(static=True)
    padding_mode: str = field(static=True)

    def __init__(
        self,
        num_spatial_dims: int,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence[int] | Sequence[tuple[int, int]] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str = "ZEROS",
        dtype=None,
        *,
        key: PRNGKeyArray,
    ):
        parse = _ntuple(num_spatial_dims)
        kernel_size = parse(kernel_size)
        stride = parse(stride)
        dilation = parse(dilation)

        if in_channels % groups != 0:
            raise ValueError(
                f"`in_channels` (={in_channels}) must be divisible "
                f"by `groups` (={groups})."
            )

        dtype = jnp.float32 if dtype is None else dtype
        wkey, bkey = jrandom.split(key, 2)
        grouped_in_channels = in_channels // groups
        lim = 1 / math.sqrt(grouped_in_channels * math.prod(kernel_size))
        wshape = (out_channels, grouped_in_channels) + kernel_size
        self.weight = default_init(wkey, wshape, dtype, lim)
        bshape = (out_channels,) + (1,) * num_spatial_dims
        self.bias = default_init(bkey, bshape, dtype, lim) if use_bias else None

        self.num_spatial_dims = num_spatial_dims
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = _padding_init(padding, num_spatial_dims)
        self.dilation = dilation
        self.groups = groups
        self.use_bias = use_bias
        self.padding_mode = _padding_mode_init(padding_mode)

    def _nonzero_pad(self, x: Array) -> Array:
        if isinstance(self.padding, str):
            rhs_shape = tuple(
                d * (k - 1) + 1 for k, d in zip(self.kernel_size, self.dilation)
            )
            padding = lax.padtype_to_pads(
                x.shape[1:], rhs_shape, self.stride, self.padding
            )
        else:
            padding = list(self.padding)

        if self.padding_mode == "REFLECT":
            mode = "reflect"
        elif self.padding_mode == "REPLICATE":
            mode = "edge"
        elif self.padding_mode == "CIRCULAR":
            mode = "wrap"
        else:
            raise ValueError("Invalid padding mode")

        x = jnp.pad(x, [(0, 0)] + padding, mode)
        return x

    @named_scope("eqx.nn.Conv")
    def __call__(self, x: Array, *, key: PRNGKeyArray | None = None) -> Array:
        del key

        unbatched_rank = self.num_spatial_dims + 1
        if x.ndim != unbatched_rank:
            raise ValueError(
                f"Input to `Conv` needs to have rank {unbatched_rank},",
                f" but input has shape {x.shape}.",
            )

        if self.padding_mode != "ZEROS":
            x = self._nonzero_pad(x)
            padding = "VALID"
        else:
            padding = self.padding

        x = jnp.expand_dims(x, axis=0)
        x = lax.conv_general_dilated(
            lhs=x,
            rhs=self.weight,
            window_strides=self.stride,
            padding=padding,
            rhs_dilation=self.dilation,
            feature_group_count=self.groups,
        )
        x = jnp.squeeze(x, axis=0)

        if self.use_bias:
            x = x + cast(Array, self.bias)
        return x


@jax.jit
def apply(conv, x):
    return conv(x)


key1, key2 = jrandom.split(jrandom.key(0))
reflect = Conv(2, 3, 4, 3, padding="same", padding_mode="reflect", use_bias=False, key=key1)
circular = Conv(2, 3, 4, (3, 3), padding=1, padding_mode="CIRCULAR", key=key2)
x = jnp.ones((3, 8, 8))
print(apply(reflect, x).shape)
print(apply(circular, x).shape)
print(apply(reflect, 2 * x).shape)
