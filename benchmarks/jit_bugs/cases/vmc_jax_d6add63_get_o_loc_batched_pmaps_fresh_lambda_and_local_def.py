"""Source: https://github.com/markusschmitt/vmc_jax/commit/d6add63d677a20e4ce5be7edeb3fcacb1ef565cb
Library: plain-jax
Reported: "Fixed cross-validation. Removed further unnecessary recompilaions." (jVMC, the day after the fix of issue 59, "Frequent recompilation in v1.2.0"). Before the commit, `Operator.get_O_loc_batched`, which computes local energies in batches at every sampling step whenever the sample count is not a multiple of the batch size, pmapped (through jVMC's wrapper `global_defs.pmap_for_my_devices = partial(jax.pmap, devices=...)`) a new lambda slicing the last batch, and the local function `expand_batch` defined anew in the same call, so each call compiled them again. The commit moves `expand_batch` to module level and pmaps the slicing lambda once in `__init__` (`self._get_Oloc_slice_pmapd`).
Transcribed: `Operator.__init__` (cut to the pmapped members `get_O_loc_batched` uses), `get_O_loc_unbatched` and `get_O_loc_batched` from jVMC/operator/base.py at the parent commit, `get_O_loc_batched` unchanged; `global_defs` (its dtypes and `pmap_for_my_devices`) written as a small class of the module's name. The operator is a stand-in with a diagonal `get_s_primes` (each configuration its own s', matrix element 1) and `psi` a module-level pmapped function, in place of jVMC's operators and NQS. The driver computes local energies for three new samples of 10 configurations in batches of 4 (a remainder of 2), as every TDVP step does, and counts backend compilations with a `jax.monitoring` listener: each call compiles the remainder path again.
Hard: the pmap goes through the project's wrapper (a `functools.partial` of `jax.pmap`) and its result is called at once, inside an `if` of a method the module's loop calls; one function pmapped is a lambda, the other a local `def` made anew by each call.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import vmap

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


class global_defs:  # jVMC/global_defs.py
    tReal = jnp.float32
    tCpx = jnp.complex64
    myPmapDevices = jax.devices()
    pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)


class Operator:
    def __init__(self, ElocBatchSize=-1):
        self.ElocBatchSize = ElocBatchSize

        # pmap'd member functions
        self._get_O_loc_pmapd = global_defs.pmap_for_my_devices(self._get_O_loc)
        self._alloc_Oloc_cpx_pmapd = global_defs.pmap_for_my_devices(lambda s: jnp.zeros(s.shape[0],
                                                                                         dtype=global_defs.tCpx))
        self._alloc_Oloc_real_pmapd = global_defs.pmap_for_my_devices(lambda s: jnp.zeros(s.shape[0],
                                                                                          dtype=global_defs.tReal))
        self._get_config_batch_pmapd = global_defs.pmap_for_my_devices(lambda d, startIdx, sliceSize: jax.lax.dynamic_slice_in_dim(d, startIdx, sliceSize), in_axes=(0, None, None), static_broadcasted_argnums=(2,))
        self._get_logPsi_batch_pmapd = global_defs.pmap_for_my_devices(lambda d, startIdx, sliceSize: jax.lax.dynamic_slice_in_dim(d, startIdx, sliceSize), in_axes=(0, None, None), static_broadcasted_argnums=(2,))
        self._insert_Oloc_batch_pmapd = global_defs.pmap_for_my_devices(
            lambda dst, src, beg: jax.lax.dynamic_update_slice(dst, src, [beg, ]),
            in_axes=(0, 0, None)
        )

    def _get_O_loc(self, matEl, logPsiS, logPsiSP):

        return jax.vmap(lambda x, y, z: jnp.sum(x * jnp.exp(z - y)), in_axes=(0, 0, 0))(matEl, logPsiS, logPsiSP.reshape(matEl.shape))

    def get_O_loc_unbatched(self, logPsiS, logPsiSP):

        return self._get_O_loc_pmapd(self.matEl, logPsiS, logPsiSP)

    def get_O_loc_batched(self, samples, psi, logPsiS, batchSize, *args):

        Oloc = None

        numSamples = samples.shape[1]
        numBatches = numSamples // batchSize
        remainder = numSamples % batchSize

        # Minimize mismatch
        if remainder > 0:
            batchSize = numSamples // (numBatches+1)
            numBatches = numSamples // batchSize
            remainder = numSamples % batchSize

        for b in range(numBatches):

            batch = self._get_config_batch_pmapd(samples, b * batchSize, batchSize)
            logPsiSbatch = self._get_logPsi_batch_pmapd(logPsiS, b * batchSize, batchSize)

            sp, _ = self.get_s_primes(batch, *args)

            OlocBatch = self.get_O_loc_unbatched(logPsiSbatch, psi(sp))

            if Oloc is None:
                if OlocBatch.dtype == global_defs.tCpx:
                    Oloc = self._alloc_Oloc_cpx_pmapd(samples)
                else:
                    Oloc = self._alloc_Oloc_real_pmapd(samples)

            Oloc = self._insert_Oloc_batch_pmapd(Oloc, OlocBatch, b * batchSize)
        
        if remainder > 0:

            def expand_batch(batch, batchSize):
                outShape = list(batch.shape)
                outShape[0] = batchSize
                outp = jnp.zeros(tuple(outShape), dtype=batch.dtype)
                return outp.at[:batch.shape[0]].set(batch)
            batch = self._get_config_batch_pmapd(samples, numBatches * batchSize, remainder)
            batch = global_defs.pmap_for_my_devices(expand_batch, static_broadcasted_argnums=(1,))(batch, batchSize)  # expect: jit-fresh-function
            logPsiSbatch = self._get_logPsi_batch_pmapd(logPsiS, numBatches * batchSize, numSamples % batchSize)
            logPsiSbatch = global_defs.pmap_for_my_devices(expand_batch, static_broadcasted_argnums=(1,))(logPsiSbatch, batchSize)  # expect: jit-fresh-function

            sp, _ = self.get_s_primes(batch, *args)

            OlocBatch = self.get_O_loc_unbatched(logPsiSbatch, psi(sp))
        
            OlocBatch = global_defs.pmap_for_my_devices(  # expect: jit-fresh-function
                            lambda d, startIdx, sliceSize: jax.lax.dynamic_slice_in_dim(d, startIdx, sliceSize), 
                            in_axes=(0, None, None), static_broadcasted_argnums=(2,)
                        )(OlocBatch, 0, remainder)

            Oloc = self._insert_Oloc_batch_pmapd(Oloc, OlocBatch, numBatches * batchSize)

        return Oloc


def _diagonal_s_primes(s):
    return s, jnp.ones((s.shape[0], 1), dtype=global_defs.tReal)


class DiagonalOperator(Operator):
    """Stand-in: each configuration is its own s', with matrix element 1."""

    def __init__(self, ElocBatchSize=-1):
        super().__init__(ElocBatchSize)
        self._s_primes_pmapd = global_defs.pmap_for_my_devices(_diagonal_s_primes)

    def get_s_primes(self, s, *args):
        self.sp, self.matEl = self._s_primes_pmapd(s)
        return self.sp, self.matEl


def _log_psi(s):
    return jnp.sum(s, axis=-1).astype(global_defs.tReal) * 0.1


psi = global_defs.pmap_for_my_devices(_log_psi)

op = DiagonalOperator(ElocBatchSize=4)
per_call = []
for seed in range(3):
    samples = jax.random.bernoulli(jax.random.PRNGKey(seed), 0.5, (1, 10, 6)).astype(jnp.int32)
    before = compiles
    Oloc = op.get_O_loc_batched(samples, psi, psi(samples), op.ElocBatchSize)
    per_call.append(compiles - before)
print("compilations per call:", per_call)
