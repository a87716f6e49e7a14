"""Source: https://github.com/PlasmaControl/DESC/pull/310
Library: plain-jax
Reported: "Because JAX compiles `self` as a static argument for jitted methods, updating the attributes of the objective (target, weight etc) are not correctly updated in the jitted code." Before the fix, `_Objective._set_derivatives` replaced `self.compute` and `self.compute_scalar` with `jit(...)` of the bound methods when an objective is built, while `target` and `weight` stay settable properties (and `update_target` sets `self.target` from an equilibrium); the PR adds a `jit` method that deletes and re-jits the compute methods after such updates.
Transcribed: `_Objective` from desc/objectives/objective_funs.py and `FixPsi` from desc/objectives/linear_objectives.py as they stood before the fix (the versions whose `_set_derivatives(self, use_jit=True)` ends with `self.compute = jit(self.compute)`), with `jit` imported from jax instead of desc.backend and `IOAble` dropped. `_set_dimensions` keeps only the `Psi` entry, and `_set_derivatives` keeps its argument discovery and its jit lines: the `Derivative` objects it builds for each argument (desc.derivatives) are cut, and so are `callback`, `_unshift_unscale`, `update_target` and the unused properties. A stand-in equilibrium with only `Psi` and a driver that builds the objective, evaluates it, sets a new target and weight, and evaluates it again were added.
Hard: `jax.jit` is given `self.compute` and `self.compute_scalar`, bound methods of a plain class, inside a method that runs after construction (`build` calls `_set_derivatives`); the change comes later through the `target`/`weight` property setters, which `compute` reads through `_shift_scale`.
"""
from abc import ABC, abstractmethod
from inspect import getfullargspec

import numpy as np
import jax.numpy as jnp
from jax import jit


class _Objective(ABC):
    """Objective (or constraint) used in the optimization of an Equilibrium."""

    _io_attrs_ = ["_target", "_weight", "_name"]

    def __init__(self, eq=None, target=0, weight=1, name=None):

        assert np.all(np.asarray(weight) > 0)
        self._target = np.atleast_1d(target)
        self._weight = np.atleast_1d(weight)
        self._name = name
        self._built = False

        if eq is not None:
            self.build(eq)

    def _set_dimensions(self, eq):
        """Set state vector component dimensions."""
        self._dimensions = {}
        self._dimensions["Psi"] = 1

    def _set_derivatives(self, use_jit=True):
        """Set up derivatives of the objective wrt each argument."""
        self._derivatives = {}
        self._scalar_derivatives = {}
        self._args = [arg for arg in getfullargspec(self.compute)[0] if arg != "self"]

        if use_jit:
            self.compute = jit(self.compute)  # expect: jit-bound-method
            self.compute_scalar = jit(self.compute_scalar)  # expect: jit-bound-method

    def _check_dimensions(self):
        """Check that len(target) = len(weight) = dim_f."""
        if np.unique(self.target).size == 1:
            self._target = np.repeat(self.target[0], self.dim_f)
        if np.unique(self.weight).size == 1:
            self._weight = np.repeat(self.weight[0], self.dim_f)

        if self.target.size != self.dim_f:
            raise ValueError("len(target) != dim_f")
        if self.weight.size != self.dim_f:
            raise ValueError("len(weight) != dim_f")

        return None

    @abstractmethod
    def build(self, eq, use_jit=True, verbose=1):
        """Build constant arrays."""

    @abstractmethod
    def compute(self, *args, **kwargs):
        """Compute the objective function."""

    def compute_scalar(self, *args, **kwargs):
        """Compute the scalar form of the objective."""
        if self.scalar:
            f = self.compute(*args, **kwargs)
        else:
            f = jnp.sum(self.compute(*args, **kwargs) ** 2) / 2
        return f

    def _shift_scale(self, x):
        """Apply target and weighting."""
        return (x - self.target) * self.weight

    @property
    def target(self):
        """float: Target value(s) of the objective."""
        return self._target

    @target.setter
    def target(self, target):
        self._target = np.atleast_1d(target)
        self._check_dimensions()

    @property
    def weight(self):
        """float: Weighting to apply to the Objective, relative to other Objectives."""
        return self._weight

    @weight.setter
    def weight(self, weight):
        assert np.all(np.asarray(weight) > 0)
        self._weight = np.atleast_1d(weight)
        self._check_dimensions()

    @property
    def dim_f(self):
        """int: Number of objective equations."""
        return self._dim_f

    @property
    def scalar(self):
        """bool: Whether default "compute" method is a scalar (or vector)."""
        return self._scalar


class FixPsi(_Objective):
    """Fixes total toroidal magnetic flux within the last closed flux surface."""

    _scalar = True
    _linear = True
    _fixed = True

    def __init__(self, eq=None, target=None, weight=1, name="fixed-Psi"):

        super().__init__(eq=eq, target=target, weight=weight, name=name)
        self._callback_fmt = "Fixed-Psi error: {:10.3e} (Wb)"

    def build(self, eq, use_jit=True, verbose=1):
        """Build constant arrays."""
        self._dim_f = 1

        if None in self.target:
            self.target = eq.Psi

        self._check_dimensions()
        self._set_dimensions(eq)
        self._set_derivatives(use_jit=use_jit)
        self._built = True

    def compute(self, Psi, **kwargs):
        """Compute fixed-Psi error."""
        return self._shift_scale(Psi)

    @property
    def target_arg(self):
        """str: Name of argument corresponding to the target."""
        return "Psi"


class Equilibrium:
    Psi = 1.0


obj = FixPsi(eq=Equilibrium())
print("error at Psi=1.5, target 1:", obj.compute(1.5), obj.compute_scalar(1.5))
obj.target = 2.0
obj.weight = 10.0
print("after target=2, weight=10:", obj.compute(1.5), obj.compute_scalar(1.5), "(expected [-5.] [-5.])")
