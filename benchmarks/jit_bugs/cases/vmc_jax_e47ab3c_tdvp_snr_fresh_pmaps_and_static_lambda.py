"""Source: https://github.com/markusschmitt/vmc_jax/commit/e47ab3cce5d47deccdc5d80adb04439d1b645d2e
Library: plain-jax
Reported: "Removed unneccessary recompilations." (issue https://github.com/markusschmitt/vmc_jax/issues/59, "Frequent recompilation in v1.2.0 ... This severely impedes performance"). jVMC pmaps through its own wrapper `global_defs.pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)`. Before the commit, `SampledObs.jit_my_stuff` pmapped fresh lambdas onto every new `SampledObs` instance, and `mpi_wrapper.jit_my_stuff` re-pmapped `_sum_up_pmapd` on every `global_sum` call: their guard `global_defs.pmap_devices_updated()` reads `global_defs.pmapDevices`, which stays None because `mpi_wrapper` assigns its own module's `pmapDevices`. And `TDVP._get_snr` passed a new lambda (closing over `self.V`) to `transform`, where `_trafo_helper` holds it in `static_broadcasted_argnums=(3,)`. So every TDVP step compiled all of these again. The commit moves the helpers to module-level globals made once per device set and replaces the lambda by a `functools.partial` of a module-level function built once in `TDVP.__init__`. Running the pre-fix code here, every step compiles again: backend compilations 54, 74, 94 after three steps on fresh samples of the same shapes.
Transcribed: `pmap_for_my_devices`, `pmapDevices` and `pmap_devices_updated` from jVMC/global_defs.py; `jit_my_stuff` (cut to `_sum_up_pmapd`, the one `global_sum` uses) and `global_sum` from jVMC/mpi_wrapper.py, with the MPI `Allreduce` over one process replaced by the local sum and `device_put` to the default device; `SampledObs` from jVMC/stats.py (cut to `__init__`, `mean`, `covar`, `var`, `covar_data`, `transform` and `jit_my_stuff`, the last with the two helpers no method here calls, `_covar_var_helper` and `_select_helper`, left out); `realFun`, `imagFun` and `TDVP` (cut to `__init__` without the sampler and deprecation arguments, `get_tdvp_equation`, `_transform_to_eigenbasis` on device, `_get_snr`) from jVMC/util/tdvp.py, all at the commit's parent. The two jVMC modules `global_defs` and `mpi_wrapper` are written as classes of the same names (their module globals become class attributes, `global` statements become attribute assignments), so the case is one file. The driver runs three TDVP steps, as `TDVP.solve` does, on fresh random local energies and log-derivatives of the same shapes, and counts backend compilations with a `jax.monitoring` listener.
Hard: the pmap calls go through the project's wrapper (a `functools.partial` of `jax.pmap`); the pmapped functions are lambdas made afresh each time a `SampledObs` is built or `global_sum` runs, both once or more per step; the lambda in `_get_snr` reaches a static position of a pmapped function through the `fun` parameter of `SampledObs.transform`.
Not marked: `self.makeReal_pmapd` in `TDVP.__init__` pmaps a lambda once per TDVP object, which is built once.
"""
from functools import partial
import collections
import time
import warnings

import jax
import jax.numpy as jnp
import numpy as np

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


# jVMC/global_defs.py
class global_defs:
    myDevice = jax.devices()[0]
    myPmapDevices = jax.devices()  # [myDevice]
    myDeviceCount = len(myPmapDevices)
    pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)

    pmapDevices = None
    @staticmethod
    def pmap_devices_updated():
        if collections.Counter(global_defs.pmapDevices) == collections.Counter(global_defs.myPmapDevices):
            return False
        return True

pmap_for_my_devices = global_defs.pmap_for_my_devices


# jVMC/mpi_wrapper.py
class mpi:
    globNumSamples = 0
    communicationTime = 0.
    _sum_up_pmapd = None

    @staticmethod
    def jit_my_stuff():
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if global_defs.pmap_devices_updated():
            mpi._sum_up_pmapd = global_defs.pmap_for_my_devices(lambda x: jax.lax.psum(jnp.sum(x, axis=0), 'i'), axis_name='i')  # expect: jit-fresh-function

            mpi.pmapDevices = global_defs.myPmapDevices

    @staticmethod
    def global_sum(data):
        mpi.jit_my_stuff()

        data.block_until_ready()
        t0 = time.perf_counter()

        # Compute sum locally
        localSum = np.array(mpi._sum_up_pmapd(data)[0])

        # Global sum (one MPI process: the local sum)
        res = localSum

        mpi.communicationTime += time.perf_counter() - t0

        # return jnp.array(res)
        return jax.device_put(res, global_defs.myDevice)


# jVMC/stats.py
class SampledObs():
    """This class implements the computation of statistics from Monte Carlo or exact samples.
    """

    def __init__(self, observations=None, weights=None):
        self.jit_my_stuff()

        if (observations is not None) and (weights is not None):
            if len(observations.shape) == 2:
                observations = observations[...,None]

            self._weights = weights
            self._mean = mpi.global_sum( self._mean_helper(observations,self._weights)[None,...] )
            self._data = self._data_prep(observations, self._weights, self._mean)
        else:
            self._weights = weights
            self._data = observations
            self._mean = None


    def mean(self):
        """Returns the mean.
        """

        return self._mean
    

    def covar(self, other=None):
        self.jit_my_stuff()

        if other is None:
            other = self
        
        #return mpi.global_sum( self._covar_helper(self._data, other._data, self._weights)[None,...] )
        return mpi.global_sum( self._covar_helper(self._data, other._data)[None,...] )
    

    def var(self):
        """Returns the variance.
        """

        #return mpi.global_sum( self._mean_helper(jnp.abs(self._data)**2, self._weights)[None,...] )
        return mpi.global_sum( jnp.abs(self._data)**2 )
    

    def covar_data(self, other=None):
        self.jit_my_stuff()

        if other is None:
            other = self

        #return SampledObs( self._covar_data_helper(self._data, other._data), self._weights )
        return SampledObs( self._covar_data_helper(self._data, other._data, self._weights), self._weights )


    def transform(self, fun=lambda x: x):
        """Returns a `SampledObs` for the transformed data.

        Args:
            * ``fun``: A function.
        """

        #return SampledObs( self._trafo_helper(self._data, self._mean, fun), self._weights )
        return SampledObs( self._trafo_helper(self._data, self._weights, self._mean, fun), self._weights )


    def jit_my_stuff(self):
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if global_defs.pmap_devices_updated():
            self._mean_helper = pmap_for_my_devices(lambda data, w: jnp.tensordot(w, data, axes=(0,0)), in_axes=(0, 0))  # expect: jit-fresh-function
            self._data_prep = pmap_for_my_devices(lambda data, w, mean: jax.vmap(lambda d, w, m: jnp.sqrt(w) * (d - m), in_axes=(0,0,None))(data, w, mean), in_axes=(0, 0, None))  # expect: jit-fresh-function
            self._covar_helper = pmap_for_my_devices(  # expect: jit-fresh-function
                                    lambda data1, data2:
                                        jnp.tensordot(
                                            jnp.conj(data1),
                                            data2, axes=(0,0)), 
                                    in_axes=(0, 0)
                                    )
            self._covar_data_helper = pmap_for_my_devices(lambda data1, data2, w: jax.vmap(lambda a,b,w: jnp.outer(a,b) / w)(jnp.conj(data1), data2, w), in_axes=(0, 0, 0))  # expect: jit-fresh-function
            self._trafo_helper = pmap_for_my_devices(  # expect: jit-fresh-function
                                    lambda data, w, mean, f: f(
                                        jax.vmap(lambda x,y: x/jnp.sqrt(y), in_axes=(0,0))(data, w) 
                                        + mean
                                        ), 
                                    in_axes=(0, 0, None), static_broadcasted_argnums=(3,))


# jVMC/util/tdvp.py
def realFun(x):
    return jnp.real(x)


def imagFun(x):
    return 0.5 * (x - jnp.conj(x))


class TDVP:
    def __init__(self, snrTol=2, pinvTol=1e-14, makeReal='imag', rhsPrefactor=1.j, diagonalShift=0., crossValidation=False, diagonalizeOnDevice=True):
        self.snrTol = snrTol
        self.pinvTol = pinvTol
        self.diagonalShift = diagonalShift
        self.rhsPrefactor = rhsPrefactor
        self.crossValidation = crossValidation

        self.diagonalizeOnDevice = diagonalizeOnDevice

        self.metaData = None

        self.makeReal = realFun
        if makeReal == 'imag':
            self.makeReal = imagFun

        # pmap'd member functions
        self.makeReal_pmapd = global_defs.pmap_for_my_devices(jax.vmap(lambda x: self.makeReal(x)))

    def get_tdvp_equation(self, Eloc, gradients):

        self.ElocMean = Eloc.mean()[0]
        self.ElocVar = Eloc.var()[0]

        self.F0 = (-self.rhsPrefactor) * gradients.covar(Eloc).ravel()
        F = self.makeReal(self.F0)

        self.S0 = gradients.covar()
        S = self.makeReal(self.S0)

        if self.diagonalShift > 1e-10:
            S = S + jnp.diag(self.diagonalShift * jnp.diag(S))

        return S, F

    def _transform_to_eigenbasis(self, S, F):
        
        self.ev, self.V = jnp.linalg.eigh(S)

        self.VtF = jnp.dot(jnp.transpose(jnp.conj(self.V)), F)

    def _get_snr(self, Eloc, gradients):

        EO = gradients.covar_data(Eloc).transform(
                        fun=lambda x: jnp.matmul(  # expect: static-fresh-callable
                                        jnp.transpose(jnp.conj(self.V)), 
                                        self.makeReal((-self.rhsPrefactor) * x)
                                        )
                    )
        self.rhoVar = EO.var().ravel()

        self.snr = jnp.sqrt(jnp.abs(mpi.globNumSamples * (jnp.conj(self.VtF) * self.VtF) / self.rhoVar)).ravel()


numSamples, numParams = 64, 6
mpi.globNumSamples = numSamples
tdvp = TDVP(makeReal='real', rhsPrefactor=1.)
rng = np.random.default_rng(0)
counts = []
for step in range(3):
    weights = jnp.ones((1, numSamples)) / numSamples
    Eloc = SampledObs(jnp.asarray(rng.normal(size=(1, numSamples))), weights)
    gradients = SampledObs(jnp.asarray(rng.normal(size=(1, numSamples, numParams))), weights)
    S, F = tdvp.get_tdvp_equation(Eloc, gradients)
    tdvp._transform_to_eigenbasis(S, F)
    tdvp._get_snr(Eloc, gradients)
    tdvp.snr.block_until_ready()
    counts.append(compiles)
print("backend compilations after each TDVP step:", counts)  # grows with every step
