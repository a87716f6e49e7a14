"""Source: https://github.com/JaXRTS/jaxrts/pull/76
Library: plain-jax
Reported: building the standard setup of the getting-started example twice and running the probe after each, the jitted code recompiled every time, because the instrument function given to the `Setup` (a `functools.partial` of `instrument_gaussian`) was a new object each time; `Setup` wraps it in `jax.tree_util.Partial`, whose pytree metadata holds the wrapped callable, so each new partial is a new treedef for jit's cache.
Transcribed: `Setup.__init__`, `_tree_flatten`, `_tree_unflatten` and the `register_pytree_node` call from src/jaxrts/setup.py (blob 0fb5e27401cdaa35f31d3ea533eb454dbfa0d470) and the Setup construction of doc/examples/plot_getting_started.py; units (jpu/pint quantities) dropped, numbers kept in eV; the attribute comments, `__repr__` and the `k`/`full_k`/`lambda0` properties left out; `instrument_gaussian` and `convolve_stucture_factor_with_instrument` reduced to a Gaussian and a `jnp.convolve` without units; the example's setup construction and probe are run twice in a loop (as the PR describes) with a trace counter added.
Hard: the fresh callable reaches jit's cache key only through the aux data of `jax.tree_util.Partial`, a child of a hand-registered pytree (`register_pytree_node`), not through a declared static position.
"""
from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp

TRACES = [0]


def instrument_gaussian(x, sigma):
    return jnp.exp(-(x**2) / (2 * sigma**2)) / (jnp.sqrt(2 * jnp.pi) * sigma)


class Setup:

    def __init__(
        self,
        scattering_angle,
        energy,
        measured_energy,
        instrument: Callable,
        correct_k_dispersion: bool = True,
        frc_exponent: float = 0.0,
    ):
        self.scattering_angle = scattering_angle
        self.energy = energy
        self.measured_energy = measured_energy
        self.instrument: Callable = jax.tree_util.Partial(instrument)
        self.correct_k_dispersion: bool = correct_k_dispersion
        self.frc_exponent: float = frc_exponent

    # The following is required to jit a setup
    def _tree_flatten(self):
        children = (
            self.scattering_angle,
            self.energy,
            self.measured_energy,
            self.instrument,
            self.frc_exponent,
        )
        aux_data = (self.correct_k_dispersion,)  # static values
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        obj = object.__new__(Setup)
        (
            obj.scattering_angle,
            obj.energy,
            obj.measured_energy,
            obj.instrument,
            obj.frc_exponent,
        ) = children
        (obj.correct_k_dispersion,) = aux_data
        return obj


@jax.jit
def convolve_stucture_factor_with_instrument(Sfac, setup: Setup):
    TRACES[0] += 1
    conv_grid = setup.measured_energy - jnp.mean(setup.measured_energy)
    conv_grid += jnp.min(jnp.abs(conv_grid))
    return jnp.convolve(Sfac, setup.instrument(conv_grid), mode="same") * jnp.diff(setup.measured_energy)[0]


jax.tree_util.register_pytree_node(
    Setup,
    Setup._tree_flatten,
    Setup._tree_unflatten,
)

if __name__ == "__main__":
    Sfac = jnp.ones(500)
    for _ in range(2):
        setup = Setup(
            scattering_angle=60.0,
            energy=4700.0,
            measured_energy=4700.0 + jnp.linspace(-100, 40, 500),
            instrument=partial(  # expect: static-fresh-callable
                instrument_gaussian,
                sigma=5.0 / (2 * jnp.sqrt(2 * jnp.log(2))),
            ),
        )
        See_tot = convolve_stucture_factor_with_instrument(Sfac, setup)
    print("traces:", TRACES[0])
    assert TRACES[0] == 2, TRACES
    print("BUG: the second, identical setup recompiled the jitted function")
