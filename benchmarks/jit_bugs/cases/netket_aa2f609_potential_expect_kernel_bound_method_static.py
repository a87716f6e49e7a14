"""Source: https://github.com/netket/netket/commit/aa2f609e4e4291df4d5bf65a307889e872999298
Library: plain-jax
Reported: the commit "make sumoperator and PotentitalOperator hash stable / comparable (#1440) ... and their kernels hash stable as well, to reduce recompilation". Before it, `get_local_kernel` for a continuous operator returned the bound method `Ô._expect_kernel`, which `expect` passes to `_expect`, jitted with `static_argnums=(0, 1)`. `ContinuousOperator` defined no `__hash__`/`__eq__`, so the bound method hashed and compared by the operator's identity: in the commit's words, "we would recompile every time we construct a new operator, even if it is identical". The fix makes `_expect_kernel` a staticmethod, passes the potential function in a `struct.field(pytree_node=False)` of a pytree, and gives operators `__hash__`/`__eq__` over their attributes.
Transcribed: `ContinuousOperator.__init__`, `PotentialEnergy` (its `__init__`, `_expect_kernel_single`, vmapped `_expect_kernel`, `_pack_arguments`) from netket/operator/_potential.py and _continuous_operator.py at the parent commit; the continuous-operator rules of `get_local_kernel_arguments`/`get_local_kernel` and `expect`/`_expect` (its body cut to the mean of the local values) from netket/vqs/mc/mc_state/expect.py, with multiple dispatch replaced by direct calls. The Hilbert space, the variational state (samples, `_apply_fun`, parameters) are minimal stand-ins; a module-level harmonic potential, a trace counter in `_expect` and a driver that builds the same potential operator afresh for each of three expectation values (as a loop over a parameter sweep does) were added.
Hard: the static value is a bound method returned by a function (`get_local_kernel`) through a local name; its instance is a plain class without `__hash__`, built anew by the caller's loop with equal arguments.
"""
from functools import partial

import jax
import jax.numpy as jnp

traces = 0


class ContinuousOperator:
    def __init__(self, hilbert, dtype=float):
        self._hilbert = hilbert
        self._dtype = dtype

    @property
    def hilbert(self):
        return self._hilbert


class PotentialEnergy(ContinuousOperator):
    r"""Returns the local potential energy defined in afun"""

    def __init__(self, hilbert, afun, coefficient=1.0, dtype=None):
        self._afun = afun
        self.coefficient = jnp.array(coefficient, dtype=dtype)
        super().__init__(hilbert, self.coefficient.dtype)

    def _expect_kernel_single(self, logpsi, params, x, coefficient):
        return coefficient * self._afun(x)

    @partial(jax.vmap, in_axes=(None, None, None, 0, None))
    def _expect_kernel(self, logpsi, params, x, coefficient):
        return self._expect_kernel_single(logpsi, params, x, coefficient)

    @property
    def is_hermitian(self):
        return True

    def _pack_arguments(self):
        return self.coefficient


class MCState:  # stand-in for netket.vqs.MCState
    def __init__(self, apply_fun, parameters, samples):
        self._apply_fun = apply_fun
        self.parameters = parameters
        self.model_state = {}
        self.samples = samples
        self.machine_pow = 2


def get_local_kernel_arguments(vstate, Ô):
    σ = vstate.samples
    args = Ô._pack_arguments()
    return σ, args


def get_local_kernel(vstate, Ô):
    return Ô._expect_kernel


def expect(vstate, Ô):
    σ, args = get_local_kernel_arguments(vstate, Ô)

    local_estimator_fun = get_local_kernel(vstate, Ô)

    return _expect(
        local_estimator_fun,  # expect: static-identity-hash
        vstate._apply_fun,
        vstate.machine_pow,
        vstate.parameters,
        vstate.model_state,
        σ,
        args,
    )


@partial(jax.jit, static_argnums=(0, 1))
def _expect(local_value_kernel, model_apply_fun, machine_pow, parameters, model_state, σ, local_value_args):
    global traces
    traces += 1
    σ_shape = σ.shape
    if jnp.ndim(σ) != 2:
        σ = σ.reshape((-1, σ_shape[-1]))

    def logpsi(w, σ):
        return model_apply_fun({"params": w, **model_state}, σ)

    O_loc = local_value_kernel(logpsi, parameters, σ, local_value_args)
    return jnp.mean(O_loc)


def harmonic(x):
    return 0.5 * jnp.sum(x ** 2)


def log_gaussian(variables, x):
    return -variables["params"]["a"] * jnp.sum(x ** 2, axis=-1)


hilbert = "Particle(N=2, D=1)"
vs = MCState(log_gaussian, {"a": jnp.array(0.5)}, jax.random.normal(jax.random.PRNGKey(0), (16, 2)))
for a in (0.5, 0.5, 0.5):
    pot = PotentialEnergy(hilbert, harmonic)
    print(float(expect(vs, pot)))
print("traces for three equal operators:", traces)
