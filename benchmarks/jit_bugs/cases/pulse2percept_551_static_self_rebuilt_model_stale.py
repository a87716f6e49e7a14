"""Source: https://github.com/pulse2percept/pulse2percept/issues/551
Library: plain-jax
Reported: "[BUG] Jax for BiphasixAxonMap silent error when rebuilt": "if a BiphasicAxonMapModel with jax engine is rebuilt with a different lambda, then it will still compute according to the old lambda." The jitted methods take `self` as a static argument (`static_argnums=[0]`), and `self` hashes by identity, so after `build()` changes the model's parameters and its axon map, jit finds the code it compiled for the old model; the `jit(...)` re-wrapping in `_build` (the lines the issue links), meant to clear the cached functions, wraps the same bound methods and clears nothing.
Transcribed: `cond_jit` and, from `BiphasicAxonMapSpatial` in pulse2percept/models/granley2021.py, `__init__`, `_build`, `predict_one_point_jax`, `biphasic_axon_map_jax`, `_predict_spatial_jax` and `_predict_spatial_batched`, unchanged but for docstrings. Left out: `__getattr__`/`__setattr__` (which forward parameters to the effect models and freeze new attributes), `_predict_spatial` and `predict_percept` (stimulus bookkeeping). The base class `AxonMapSpatial` is a stand-in: `build(**params)` sets the parameters and calls `_build`, as pulse2percept's BaseModel does, and `_build` makes an axon-segment table whose sensitivity decays with `axlambda` (the real one traces axon bundles). The effect models are stand-ins with the real call signature (brightness = amplitude, size and streak 1). The driver builds a model, predicts, rebuilds it with another lambda, predicts again and compares with a model built with that lambda from the start.
Hard: `self` is static through `static_argnums=[0]` given to a local alias of jax.jit (`cond_jit`), on methods of a plain class that `build()` and `_build` change after jit compiled for it; the re-jit in `_build` is `jax.jit(obj.method)` on the object that changes.
Not marked: `biphasic_axon_map_jax` also takes a static `self`, but reads only the method `predict_one_point_jax` through it; rho and the axon table arrive as arguments.
"""
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax import jit, lax

has_jax = True


def cond_jit(fn, static_argnums=None):
    """ Conditional decorator for jax jit"""
    if has_jax:
        if static_argnums is None:
            return jit(fn)
        else:
            return jit(fn, static_argnums=static_argnums)
    else:
        return fn


class DefaultBrightModel:  # stand-in effect models with the real call signature
    def __call__(self, freq, amp, pdur):
        return amp


class DefaultSizeModel:
    def __init__(self, rho, engine):
        self.rho = rho

    def __call__(self, freq, amp, pdur):
        return jnp.ones_like(amp)


class DefaultStreakModel:
    def __init__(self, axlambda, engine):
        self.axlambda = axlambda

    def __call__(self, freq, amp, pdur):
        return jnp.ones_like(amp)


class AxonMapSpatial:  # stand-in for pulse2percept.models.AxonMapSpatial
    def __init__(self, **params):
        self.rho = 200.0
        self.axlambda = 500.0
        self.thresh_percept = 0.0
        self.engine = 'jax'
        self.bright_model = None
        self.size_model = None
        self.streak_model = None

    def build(self, **build_params):
        for key, val in build_params.items():
            setattr(self, key, val)
        self._build()
        self.is_built = True
        return self

    def _build(self):
        # axon segments (x, y, sensitivity) closest to each of 4 simulated points
        dist = np.linspace(0.0, 800.0, 3, dtype=np.float32)
        seg = np.stack([np.stack([np.full(3, 100.0 * p, dtype=np.float32), dist,
                                  np.exp(-dist / self.axlambda)], axis=1) for p in range(4)])
        self.axon_contrib = seg


class BiphasicAxonMapSpatial(AxonMapSpatial):
    def __init__(self, **params):
        super(BiphasicAxonMapSpatial, self).__init__(**params)
        if self.bright_model is None:
            self.bright_model = DefaultBrightModel()
        if self.size_model is None:
            self.size_model = DefaultSizeModel(self.rho, self.engine)
        if self.streak_model is None:
            self.streak_model = DefaultStreakModel(self.axlambda, self.engine)
        for key, val in params.items():
            if key in ['bright_model', 'size_model', 'streak_model']:
                continue
            setattr(self, key, val)

    def _build(self):
        if not callable(self.bright_model):
            raise TypeError("bright_model needs to be callable")
        if not callable(self.size_model):
            raise TypeError("size_model needs to be callable")
        if not callable(self.streak_model):
            raise TypeError("streak_model needs to be callable")
        if self.engine == 'jax' and not has_jax:
            raise ImportError("Engine was chosen as jax, but jax is not installed. "
                              "You can install it with 'pip install \"jax[cpu]\"' for cpu "
                              "or following https://github.com/google/jax#installation for gpu")

        super(BiphasicAxonMapSpatial, self)._build()
        if self.engine == 'jax':
            # Clear previously cached functions
            self._predict_spatial_jax = jit(self._predict_spatial_jax)  # expect: jit-bound-method
            self._predict_spatial_batched = jit(self._predict_spatial_batched)  # expect: jit-bound-method
            # Cache axon_contrib for fast access later
            self.axon_contrib = jax.device_put(
                jnp.array(self.axon_contrib), jax.devices()[0])

    def predict_one_point_jax(self, axon, eparams, x, y, rho):
        """ Predicts the brightness contribution from each axon segment for each pixel"""
        d2_el = (axon[:, 0, None] - x)**2 + (axon[:, 1, None] - y)**2
        intensities = eparams[:, 0] * jnp.exp(-d2_el / (2. * rho**2 * eparams[:, 1])) * (
            axon[:, 2, None] ** (1./eparams[:, 2]))
        return jnp.sum(intensities, axis=1)

    @partial(cond_jit, static_argnums=[0])
    def biphasic_axon_map_jax(self, eparams, x, y, axon_segments, rho, thresh_percept):
        """ Predicts the spatial response of BiphasicAxonMapModel using Jax"""
        I = jnp.max(jax.vmap(self.predict_one_point_jax, in_axes=[0, None, None, None, None])(
            axon_segments,
            eparams, x, y,
            rho), axis=1)
        I = (I > thresh_percept) * I
        return I

    @partial(cond_jit, static_argnums=[0])  # expect: static-identity-hash
    def _predict_spatial_jax(self, elec_params, x, y):
        """A stripped version of _predict_spatial that takes only electrode parameters"""
        bright_effects = jnp.array(self.bright_model(elec_params[:, 0],
                                                     elec_params[:, 1],
                                                     elec_params[:, 2])).reshape((-1))
        size_effects = jnp.array(self.size_model(elec_params[:, 0],
                                                 elec_params[:, 1],
                                                 elec_params[:, 2])).reshape((-1))
        streak_effects = jnp.array(self.streak_model(elec_params[:, 0],
                                                     elec_params[:, 1],
                                                     elec_params[:, 2])).reshape((-1))
        eparams = jnp.stack(
            [bright_effects, size_effects, streak_effects], axis=1)

        resp = self.biphasic_axon_map_jax(eparams, x, y,
                                          self.axon_contrib,
                                          self.rho,
                                          self.thresh_percept)
        return resp

    @partial(cond_jit, static_argnums=[0])  # expect: static-identity-hash
    def _predict_spatial_batched(self, elec_params, x, y):
        """ A batched version of _predict_spatial_jax"""
        bright_effects = self.bright_model(elec_params[:, :, 0],
                                           elec_params[:, :, 1],
                                           elec_params[:, :, 2])
        size_effects = self.size_model(elec_params[:, :, 0],
                                       elec_params[:, :, 1],
                                       elec_params[:, :, 2])
        streak_effects = self.streak_model(elec_params[:, :, 0],
                                           elec_params[:, :, 1],
                                           elec_params[:, :, 2])
        eparams = jnp.stack(
            [bright_effects, size_effects, streak_effects], axis=2)

        def predict_one(e_params):
            return self.biphasic_axon_map_jax(e_params, x, y,
                                              self.axon_contrib,
                                              self.rho,
                                              self.thresh_percept)
        resps = lax.map(predict_one, eparams)

        return resps


elec_params = np.array([[20.0, 1.5, 0.45]], dtype=np.float32)  # freq, amp, pdur
x = np.array([150.0], dtype=np.float32)
y = np.array([400.0], dtype=np.float32)

model = BiphasicAxonMapSpatial(engine='jax')
model.build()
before = model._predict_spatial_jax(elec_params, x, y)
model.build(axlambda=100.0)                      # rebuilt with a different lambda
after = model._predict_spatial_jax(elec_params, x, y)
fresh = BiphasicAxonMapSpatial(engine='jax').build(axlambda=100.0)._predict_spatial_jax(elec_params, x, y)
print("rebuilt model still uses the old lambda:", bool(np.allclose(after, before)), "; fresh model differs:", not bool(np.allclose(fresh, after)))
