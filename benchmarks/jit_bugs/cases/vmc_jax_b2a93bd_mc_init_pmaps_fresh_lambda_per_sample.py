"""Source: https://github.com/markusschmitt/vmc_jax/commit/b2a93bdb4c41681b58b27b71752545c3581a3ad7
Library: plain-jax
Reported: "fix repeated jit". Before the commit, `MCSampler._mc_init`, which `_get_samples_mcmc` runs at the start of every `sample()` call, pmapped (through jVMC's wrapper `global_defs.pmap_for_my_devices = partial(jax.pmap, devices=...)`) a new lambda closing over the current network parameters and a network function just fetched from `self.net.get_sampler_net()` (itself a new lambda), so every Monte Carlo sampling call compiled the initial log-probability again. The commit pmaps the bound method `self._logAccProb` once in `__init__`, with the network function in `static_broadcasted_argnums` and the parameters as an argument. Running the pre-fix `_mc_init` here as `sample()` does, once per call with new parameters of the same shapes, every call compiles again (backend compilations 1, 2, 3 after the three calls).
Transcribed: `MCSampler.__init__` (cut to the attributes `_mc_init` uses: the state array, `net`, `mu`, and the acceptance counters) and `_mc_init` from jVMC/sampler.py at the commit's parent; `pmap_for_my_devices`/`device_count` from jVMC/global_defs.py (written as a small class of the module's name). The wave function is a stand-in for jVMC's `NQS` with its `get_sampler_net` (returning `lambda p,x: jnp.real(self.net.apply(p,x))` and the parameters) around a one-layer flax network. The driver calls `_mc_init` three times with new parameters, as `_get_samples_mcmc` does at each `sample()` call (the rest of `sample()` is left out: its pmapped sweep does not run under jax 0.10.2's pmap), and counts backend compilations with a `jax.monitoring` listener.
Hard: the pmap goes through the project's wrapper (a `functools.partial` of `jax.pmap`), and its result is called at once; the lambda captures the parameters (arrays) and a function that is itself made afresh by every `get_sampler_net()` call.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn

compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


class global_defs:  # jVMC/global_defs.py
    myPmapDevices = jax.devices()
    myDeviceCount = len(myPmapDevices)
    pmap_for_my_devices = partial(jax.pmap, devices=myPmapDevices)

    @staticmethod
    def device_count():
        return len(global_defs.myPmapDevices)


class MCSampler:
    def __init__(self, net, sampleShape, numChains=1, initState=None, mu=2):
        self.sampleShape = sampleShape

        self.net = net

        stateShape = (global_defs.device_count(), numChains) + sampleShape
        if initState is None:
            initState = jnp.zeros(sampleShape, dtype=np.int32)
        self.states = jnp.stack([initState] * (global_defs.device_count() * numChains), axis=0).reshape(stateShape)

        # Make sure that net is initialized
        self.net(self.states)

        self.mu = mu
        if mu < 0 or mu > 2:
            raise ValueError("mu must be in the range [0, 2]")

        shape = (global_defs.device_count(),) + (1,)
        self.numProposed = jnp.zeros(shape, dtype=np.int64)
        self.numAccepted = jnp.zeros(shape, dtype=np.int64)

        self.numChains = numChains

    def _mc_init(self, netParams):

        # Initialize logAccProb
        net, _ = self.net.get_sampler_net()
        self.logAccProb = global_defs.pmap_for_my_devices(  # expect: jit-fresh-function
            lambda x: jax.vmap(lambda y: self.mu * jnp.real(net(netParams, y)), in_axes=(0,))(x)
        )(self.states)

        shape = (global_defs.device_count(),) + (1,)

        self.numProposed = jnp.zeros(shape, dtype=np.int64)
        self.numAccepted = jnp.zeros(shape, dtype=np.int64)


class Net(nn.Module):  # stand-in network: log-amplitude of a spin configuration
    @nn.compact
    def __call__(self, s):
        return jnp.sum(nn.Dense(1)(2. * s.ravel() - 1.))


class NQS:  # stand-in for jVMC.vqs.NQS
    def __init__(self, net, sampleShape, seed=0):
        self.net = net
        self.params = net.init(jax.random.PRNGKey(seed), jnp.zeros(sampleShape))["params"]
        self._eval = jax.jit(lambda p, s: jax.vmap(jax.vmap(lambda x: net.apply(p, x)))(s))

    @property
    def parameters(self):
        return {"params": self.params}

    def __call__(self, s):
        return self._eval({"params": self.params}, s)

    def get_sampler_net(self):
        evalReal = lambda p,x: jnp.real( self.net.apply(p,x) )
        return evalReal, self.parameters


sampleShape = (4,)
psi = NQS(Net(), sampleShape)
sampler = MCSampler(psi, sampleShape, numChains=4)
base = compiles
counts = []
for seed in range(1, 4):  # one `sample()` call each
    psi.params = Net().init(jax.random.PRNGKey(seed), jnp.zeros(sampleShape))["params"]
    sampler._mc_init(psi.parameters)
    sampler.logAccProb.block_until_ready()
    counts.append(compiles - base)
print("backend compilations after each _mc_init:", counts)  # grows with every call
