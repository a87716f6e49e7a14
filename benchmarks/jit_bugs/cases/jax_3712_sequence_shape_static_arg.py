"""Source: https://github.com/jax-ml/jax/pull/3712
Library: plain-jax
Reported: jax.image.resize passes its shape parameter, typed Sequence[int], straight into a static position of the jitted _resize; a caller's list is unhashable there (the pull request wraps it in tuple(shape)).
Transcribed: _resize's decorator and signature and resize's signature and return line from jax/image/scale.py before the pull request; _resize's body, which called private helpers of that file, became one call of jax.image.resize on the tuple of the shape; resize's docstring is left out; a caller passing a list was added.
Hard: _resize's static parameter shape is declared Sequence[int], which admits a list; _resize is private, so the finding is at its caller, which passes resize's Sequence-typed parameter on (where the pull request adds tuple(shape)).
"""
from functools import partial
import enum
from typing import Sequence, Union

import jax
import jax.numpy as jnp
from jax import jit


class ResizeMethod(enum.Enum):
  LINEAR = 1
  LANCZOS3 = 2
  LANCZOS5 = 3
  CUBIC = 4


@partial(jit, static_argnums=(1, 2, 3))
def _resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
            antialias: bool):
  return jax.image.resize(image, tuple(shape), "linear", antialias=antialias)

def resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
           antialias: bool = True):
  return _resize(image, shape, method, antialias)  # expect: static-unhashable


resize(jnp.ones((4, 4)), [2, 2], "linear")
