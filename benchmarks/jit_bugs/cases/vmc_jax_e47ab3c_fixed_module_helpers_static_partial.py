"""Source: https://github.com/markusschmitt/vmc_jax/blob/e47ab3cce5d47deccdc5d80adb04439d1b645d2e/jVMC/stats.py
Library: plain-jax
Correct: jVMC after commit e47ab3c ("Removed unneccessary recompilations"). The statistics helpers are module globals, pmapped through the project's wrapper `global_defs.pmap_for_my_devices` (a `functools.partial` of `jax.pmap`) by a module-level `jit_my_stuff` that re-pmaps them only when the device set differs from the one recorded in `statsPmapDevices` (likewise `_sum_up_pmapd` in `mpi_wrapper`, recorded in `mpiPmapDevices`); every `SampledObs` and every `global_sum` call runs the check, which finds nothing to do after the first. `TDVP.__init__` builds `self.trafo_helper = partial(transform_helper, rhsPrefactor=rhsPrefactor, makeReal=self.makeReal)` once, and `_get_snr` passes that same object at every step to `_trafo_helper_2`, which holds it in `static_broadcasted_argnums=(4,)`, while the changing matrix `V` goes in as a traced argument. Three TDVP steps on fresh samples compile only in the first. A checker that reports the lambdas pmapped inside `jit_my_stuff`, the `functools.partial` in a static position, or the module globals reassigned by a function, would flag the fix.
Transcribed: the fixed counterparts of the bug case `vmc_jax_e47ab3c_tdvp_snr_fresh_pmaps_and_static_lambda.py`, at the commit named: `pmap_devices_updated(pmapDevices)` from jVMC/global_defs.py; `jit_my_stuff` (cut to `_sum_up_pmapd`) and `global_sum` from jVMC/mpi_wrapper.py (one MPI process); the module-level helpers, `jit_my_stuff` (cut to the helpers the methods here call) and `SampledObs` (cut to `__init__`, `mean`, `covar`, `var`, `covar_data`, `transform`) from jVMC/stats.py; `realFun`, `imagFun`, `transform_helper` and `TDVP` (cut as in the bug case) from jVMC/util/tdvp.py. The modules `global_defs`, `mpi_wrapper` and `stats` are written as classes of those names (module globals become class attributes). Same driver and compilation count as the bug case.
"""
from functools import partial
import collections
import time

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

    @staticmethod
    def pmap_devices_updated(pmapDevices):
        if collections.Counter(pmapDevices) == collections.Counter(global_defs.myPmapDevices):
            return False
        return True

pmap_for_my_devices = global_defs.pmap_for_my_devices


# jVMC/mpi_wrapper.py
class mpi:
    globNumSamples = 0
    communicationTime = 0.
    _sum_up_pmapd = None

    mpiPmapDevices = None
    @staticmethod
    def jit_my_stuff():
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if global_defs.pmap_devices_updated(mpi.mpiPmapDevices):
            mpi._sum_up_pmapd = global_defs.pmap_for_my_devices(lambda x: jax.lax.psum(jnp.sum(x, axis=0), 'i'), axis_name='i')

            mpi.mpiPmapDevices = global_defs.myPmapDevices

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
class stats:
    _mean_helper = None
    _data_prep = None
    _covar_helper = None
    _covar_data_helper = None
    _trafo_helper_1 = None
    _trafo_helper_2 = None

    statsPmapDevices = None

    @staticmethod
    def jit_my_stuff():
        # This is a helper function to make sure that pmap'd functions work with the actual choice of devices
        # at all times.

        if global_defs.pmap_devices_updated(stats.statsPmapDevices):

            stats.statsPmapDevices = global_defs.myPmapDevices

            stats._mean_helper = pmap_for_my_devices(lambda data, w: jnp.tensordot(w, data, axes=(0,0)), in_axes=(0, 0))
            stats._data_prep = pmap_for_my_devices(lambda data, w, mean: jax.vmap(lambda d, w, m: jnp.sqrt(w) * (d - m), in_axes=(0,0,None))(data, w, mean), in_axes=(0, 0, None))
            stats._covar_helper = pmap_for_my_devices(
                                    lambda data1, data2:
                                        jnp.tensordot(
                                            jnp.conj(data1),
                                            data2, axes=(0,0)), 
                                    in_axes=(0, 0)
                                    )
            stats._covar_data_helper = pmap_for_my_devices(lambda data1, data2, w: jax.vmap(lambda a,b,w: jnp.outer(a,b) / w)(jnp.conj(data1), data2, w), in_axes=(0, 0, 0))
            stats._trafo_helper_1 = pmap_for_my_devices(
                                    lambda data, w, mean, f: f(
                                        jax.vmap(lambda x,y: x/jnp.sqrt(y), in_axes=(0,0))(data, w) 
                                        + mean
                                        ), 
                                    in_axes=(0, 0, None), static_broadcasted_argnums=(3,))
            stats._trafo_helper_2 = pmap_for_my_devices(
                                    lambda data, w, mean, v, f: 
                                        jnp.matmul(v, 
                                                    f(
                                                    jax.vmap(lambda x,y: x/jnp.sqrt(y), in_axes=(0,0))(data, w) 
                                                    + mean
                                                    )
                                        ), 
                                    in_axes=(0, 0, None, None), static_broadcasted_argnums=(4,))


class SampledObs():
    """This class implements the computation of statistics from Monte Carlo or exact samples.
    """

    def __init__(self, observations=None, weights=None):
        stats.jit_my_stuff()

        if (observations is not None) and (weights is not None):
            if len(observations.shape) == 2:
                observations = observations[...,None]

            self._weights = weights
            self._mean = mpi.global_sum( stats._mean_helper(observations,self._weights)[None,...] )
            self._data = stats._data_prep(observations, self._weights, self._mean)
        else:
            self._weights = weights
            self._data = observations
            self._mean = None


    def mean(self):
        """Returns the mean.
        """

        return self._mean
    

    def covar(self, other=None):
        if other is None:
            other = self
        
        return mpi.global_sum( stats._covar_helper(self._data, other._data)[None,...] )
    

    def var(self):
        """Returns the variance.
        """

        return mpi.global_sum( jnp.abs(self._data)**2 )
    

    def covar_data(self, other=None):
        if other is None:
            other = self

        return SampledObs( stats._covar_data_helper(self._data, other._data, self._weights), self._weights )


    def transform(self, nonLinearFun=lambda x: x, linearFun=None):
        """Returns a `SampledObs` for the transformed data.

        Args:
            * ``fun``: A function.
        """

        if linearFun is None:
            return SampledObs( stats._trafo_helper_1(self._data, self._weights, self._mean, nonLinearFun), self._weights )
        
        return SampledObs( stats._trafo_helper_2(self._data, self._weights, self._mean, linearFun, nonLinearFun), self._weights )


# jVMC/util/tdvp.py
def realFun(x):
    return jnp.real(x)


def imagFun(x):
    return 0.5 * (x - jnp.conj(x))
                        

def transform_helper(x, rhsPrefactor, makeReal):
    return makeReal((-rhsPrefactor) * x)


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
        self.trafo_helper = partial(transform_helper, rhsPrefactor=rhsPrefactor, makeReal=self.makeReal)

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
                        linearFun = jnp.transpose(jnp.conj(self.V)),
                        nonLinearFun=self.trafo_helper
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
print("backend compilations after each TDVP step:", counts)  # flat after the first step
