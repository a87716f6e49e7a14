"""Source: https://github.com/google-deepmind/torax/blob/8f36b6c17f9543cadd5e260769764c36a0aa55e3/torax/_src/pedestal_model/formation/base.py
Library: plain-jax
Correct: TORAX's pedestal formation models are an abstract base class, FormationModel(StaticDataclass, abc.ABC), whose concrete models are frozen dataclasses (eq=False, so they keep StaticDataclass's __eq__ and __hash__ over the fields and the class name); a formation model passed in a static position is immutable and hashed by value, whichever concrete class it is.
Transcribed: StaticDataclass from torax/_src/static_dataclass.py (commit c7b9d292a6a30d09680392e6b9212fe6da21dda7) cut to as_tuple, _full_tuple, __eq__, __hash__ and _hash (its __post_init__ checks are left out); FormationModel from formation/base.py with the argument types of __call__ dropped; MartinFormationModel from formation/martin_formation_model.py (commit 3b8f6dd316787d60d5aeb77b4fa9828407f329a3) with its body cut to a sigmoid of the power ratio; a jitted function taking the formation model as a static argument, standing in for TORAX's jitted step, and two calls were added.
"""
import abc
import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, eq=False)
class StaticDataclass:
  """Empty base class used to define static arguments to JAX."""

  def as_tuple(self) -> tuple[Any, ...]:
    return tuple(
        getattr(self, field.name) for field in dataclasses.fields(self)
    )

  def _full_tuple(self) -> tuple[Any, ...]:
    # Create a fully qualified class name string (e.g., 'my_module.MyClass')
    class_id = f"{self.__class__.__module__}.{self.__class__.__qualname__}"

    return self.as_tuple() + (class_id,)

  def __eq__(self, other: Any) -> bool:
    if not isinstance(other, StaticDataclass):
      return False

    return self._full_tuple() == other._full_tuple()

  def __hash__(self) -> int:
    return self._hash()

  def _hash(self) -> int:
    """Hash function implementation."""
    return hash(self._full_tuple())


@dataclasses.dataclass(frozen=True, eq=False)
class FormationModel(StaticDataclass, abc.ABC):
  """Base class for pedestal formation models."""

  @abc.abstractmethod
  def __call__(
      self,
      P_SOL_total,
      P_LH,
  ):
    """Calculates the transport decrease multipliers."""


@dataclasses.dataclass(frozen=True, eq=False)
class MartinFormationModel(FormationModel):
  """Pedestal formation based on P_SOL and P_LH, using Martin scaling."""

  def __call__(
      self,
      P_SOL_total,
      P_LH,
  ):
    normalized_deviation = (P_SOL_total - P_LH) / P_LH
    return 1 - jax.nn.sigmoid(normalized_deviation)


@jax.jit(static_argnames=['formation_model'])
def transport_multiplier(
    formation_model: FormationModel, P_SOL_total: jax.Array, P_LH: jax.Array
) -> jax.Array:
  return formation_model(P_SOL_total, P_LH)


print(transport_multiplier(MartinFormationModel(), jnp.array(2.0), jnp.array(1.0)))
print(transport_multiplier(MartinFormationModel(), jnp.array(0.5), jnp.array(1.0)))
