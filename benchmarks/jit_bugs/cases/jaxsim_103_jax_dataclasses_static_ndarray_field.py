"""Source: https://github.com/gbionics/jaxsim/issues/103
Library: jax_dataclasses
Reported: two JaxSimModel objects built the same way cannot both be passed to a jitted function: the second call fails with 'The truth value of an array with more than one element is ambiguous'; the reduced example, without jaxsim, is a jax_dataclasses pytree whose Static field holds a numpy array.
Transcribed: the reduced example from the thread (a maintainer's comment), with its duplicated imports kept; nothing added.
Hard: the static marker is jax_dataclasses' Static[...] annotation; the array is built by np.zeros in a staticmethod constructor, and the two calls go through two jax.jit wrappers of one function, which share its cache.
"""
import dataclasses

import jax
import jax.numpy as jnp
import jax_dataclasses
from jax_dataclasses import Static
import pathlib
import numpy.typing as npt

import dataclasses
from typing import Dict, Union

import jax.lax
import jax.numpy as jnp
import jax_dataclasses
import numpy as np
from jax_dataclasses import Static


@jax_dataclasses.pytree_dataclass
class MWE103GroundContact:
    body: Static[npt.NDArray] = dataclasses.field(  # expect: static-dynamic-child
        default_factory=lambda: np.array([])
    )

    @staticmethod
    def build_from() -> "MWE103GroundContact":
        # Build the object
        gc = MWE103GroundContact(body=np.zeros(8))
        return gc

def local_total_mass(model: MWE103GroundContact) -> float:
    return 1.0

dummy_contact1 = MWE103GroundContact.build_from()
dummy_contact2 = MWE103GroundContact.build_from()

local_total_mass_jit1 = jax.jit(local_total_mass)
local_total_mass_jit2 = jax.jit(local_total_mass)

_ = local_total_mass_jit1(model=dummy_contact1)
_ = local_total_mass_jit2(model=dummy_contact2)
