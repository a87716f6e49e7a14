"""Source: https://github.com/pmelchior/scarlet2/pull/129
Library: equinox
Reported: "To silence the jax warnings and to get prevent it from interfering with the jit compilation (#120), this PR removes all occurrences of `static`." Among the fields it un-marks, `StaticArraySpectrum._channelindex` and `TransientArraySpectrum._epochmultiplier` are jax arrays built in `__init__` and declared `eqx.field(static=True)`: equinox warns "A JAX array is being set as static!" at every construction (the warnings the PR silences), and under `eqx.filter_jit` (scarlet2's `_make_step` is `@eqx.filter_jit`) the arrays sit in the treedef, so a second, equal spectrum (a scene rebuilt for the next fit) makes jit compare the two arrays with `==`, which raises instead of finding the cached compilation (the interference, as the driver shows it; issue #120 itself is not in the stored copies).
Transcribed: `Spectrum`, `StaticArraySpectrum` and `TransientArraySpectrum` from scarlet2/spectrum.py at the parent of the fix (c3a57f0^), unchanged but for the docstrings, which are shortened; `Scenery` from scarlet2/__init__.py; `Module` (scarlet2/module.py) is reduced to the `eqx.Module` subclass with its abstract `__call__`. Added a stand-in for the active scene (`Scenery.scene`, an object whose `frame.channels` lists (band, epoch) pairs, as in the docstring example) and a driver that evaluates each spectrum through an `eqx.filter_jit` function, building each spectrum twice, as a rebuilt scene does; the first call of the second round (an equal `TransientArraySpectrum`) fails with 'static arguments should be comparable using __eq__ ... arrays cannot be passed as metadata fields'.
Hard: the fields are declared `jnp.array` and marked `eqx.field(static=True)`; the values are jnp arrays made in `__init__` from a comprehension over the scene's channels.
Not marked: `bands: list` is a data field (a list node whose string leaves filter_jit holds static one by one, hashable), and the `band_selector`/`epoch_selector` default lambdas are only called in `__init__`, never stored.
"""
import types

import equinox as eqx
import jax.numpy as jnp


class Scenery:
    """Class to hold the context for the current scene"""
    scene = None
    """Scene of the currently opened context"""


class Module(eqx.Module):
    """Scarlet2 base module"""
    def __call__(self):
        """Evaluate the model"""
        raise NotImplementedError


class Spectrum(Module):
    """Spectrum base class"""
    @property
    def shape(self):
        """Shape (1D) of the spectrum model"""
        raise NotImplementedError



class StaticArraySpectrum(Spectrum):
    """Static (non-variable) source in a transient scene"""
    data: jnp.array
    """Data to describe the static spectrum"""
    bands: list
    """Identifier for the list of unique bands in the model frame channels"""
    _channelindex: jnp.array = eqx.field(static=True)  # expect: static-dynamic-child

    def __init__(self, data, bands, band_selector=lambda channel: channel[0]):
        try:
            frame = Scenery.scene.frame
        except AttributeError:
            print("Source can only be created within the context of a Scene")
            print("Use 'with Scene(frame) as scene: Source(...)'")
            raise

        self.data = data
        self.bands = bands
        self._channelindex = jnp.array([self.bands.index(band_selector(c)) for c in frame.channels])

    def __call__(self):
        return self.data[self._channelindex]

    @property
    def shape(self):
        return len(self.channelindex),


class TransientArraySpectrum(Spectrum):
    """Variable source in a transient scene with possible quiescent periods"""
    data: jnp.array
    """Data to describe the variable spectrum."""
    epochs: list
    """Identifier for the list of active epochs. If set to `None`, all epochs are considered active"""
    _epochmultiplier: jnp.array = eqx.field(static=True)  # expect: static-dynamic-child

    def __init__(self, data, epochs=None, epoch_selector=lambda channel: channel[1]):
        try:
            frame = Scenery.scene.frame
        except AttributeError:
            print("Source can only be created within the context of a Scene")
            print("Use 'with Scene(frame) as scene: Source(...)'")
            raise
        self.data = data
        self.epochs = epochs
        self._epochmultiplier = jnp.array([1.0 if epoch_selector(c) in epochs else 0.0 for c in frame.channels])

    def __call__(self):
        return jnp.multiply(self.data, self._epochmultiplier)

    @property
    def shape(self):
        return self.data.shape


@eqx.filter_jit
def evaluate(spectrum):
    return spectrum()


# model channels: [('G',0),('G',1),('R',0),('R',1),('R',2)]
Scenery.scene = types.SimpleNamespace(
    frame=types.SimpleNamespace(channels=[("G", 0), ("G", 1), ("R", 0), ("R", 1), ("R", 2)])
)
for fit in range(2):  # the scene is rebuilt for a second fit
    transient = TransientArraySpectrum(jnp.ones(5), epochs=[0, 1])
    print(f"fit {fit}: transient spectrum {evaluate(transient)}")
    static = StaticArraySpectrum(jnp.array([1.0, 2.0]), bands=["G", "R"])
    print(f"fit {fit}: static spectrum {evaluate(static)}")
