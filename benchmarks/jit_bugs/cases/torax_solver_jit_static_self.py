"""Source: https://github.com/google-deepmind/torax/blob/main/torax/_src/solver/solver.py
Library: plain-jax
Correct: TORAX's Solver is an abstract base class, Solver(StaticDataclass, abc.ABC), whose methods are jitted with self static; every solver is a frozen dataclass hashed by value (StaticDataclass's __eq__ and __hash__ over the fields and the class name), so the static self cannot change after jit compiled for it and equal solvers share compiled code.
Transcribed: StaticDataclass from torax/_src/static_dataclass.py (commit c7b9d292a6a30d09680392e6b9212fe6da21dda7) cut to as_tuple, _full_tuple, __eq__, __hash__ and _hash (its __post_init__ checks are left out); Solver with its models field replaced by a float field, its TORAX argument types dropped and prepare_step, solve_step and __call__ cut to their signatures, decorators and a one-line body each; a concrete subclass (standing in for TORAX's solvers, decorated the same way), an instance and calls were added.
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
class Solver(StaticDataclass, abc.ABC):
  """Solves for a single time step's update to State."""

  theta: float

  @jax.jit(static_argnames=['self'])
  def prepare_step(self, t: jax.Array, x_old: jax.Array) -> jax.Array:
    """Prepares the solver state for a time step."""
    raise NotImplementedError

  @jax.jit(static_argnames=['self'])
  def solve_step(self, prepared_state: jax.Array, dt: jax.Array) -> jax.Array:
    """Performs the solve step for a given `dt`."""
    raise NotImplementedError

  @jax.jit(
      static_argnames=[
          'self',
      ],
  )
  def __call__(self, t: jax.Array, dt: jax.Array, x_old: jax.Array) -> jax.Array:
    """Applies a time step update."""
    prepared_state = self.prepare_step(t=t, x_old=x_old)
    return self.solve_step(prepared_state=prepared_state, dt=dt)


@dataclasses.dataclass(frozen=True, eq=False)
class ThetaMethod(Solver):

  @jax.jit(static_argnames=['self'])
  def prepare_step(self, t: jax.Array, x_old: jax.Array) -> jax.Array:
    return x_old

  @jax.jit(static_argnames=['self'])
  def solve_step(self, prepared_state: jax.Array, dt: jax.Array) -> jax.Array:
    return prepared_state / (1.0 + self.theta * dt)


solver = ThetaMethod(theta=1.0)
print(solver(jnp.array(0.0), jnp.array(0.1), jnp.ones(3)))
print(ThetaMethod(theta=1.0)(jnp.array(0.1), jnp.array(0.1), jnp.ones(3)))
