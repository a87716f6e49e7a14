"""Source: https://github.com/netket/netket/blob/3b9e1c2865290d08d5df170661128a6b6c8d3939/netket/vqs/mc/mc_state/expect.py
Library: plain-jax
Correct: for a sum of operators, `get_local_kernel_sum` defines `sum_eval` inside the function and returns `HashablePartial(sum_eval, O_kernels=O_kernels)`, a new object on every expectation value, which `local_estimators` passes to `_local_estimators_impl` in the static position `kernel`. `HashablePartial` (netket/utils/partial.py) compares and hashes by the wrapped function's `__code__`, its arguments and its keywords, so the kernel of every call equals the first: `sum_eval` closes over nothing, and `O_kernels` is a tuple of the same module-level kernel; `_local_estimators_impl` compiles once, however often the estimate is taken ("The result is returned as a `HashablePartial` so that the closure does not trigger recompilation", as netket's `Sampler.log_pdf` puts it). A checker that reported a partial of a local function in a static position as made afresh would be wrong here.
Transcribed: `HashablePartial` from netket/utils/partial.py, `batch_discrete_kernel` and `local_value_kernel` from netket/vqs/mc/kernels.py, `get_local_kernel_sum` and the discrete-operator rules of `get_local_kernel_arguments`/`get_local_kernel` from netket/vqs/mc/mc_state/expect.py, and `_local_estimators_impl` and the unchunked `local_estimators` from netket/vqs/mc/mc_state/local_estimators.py, all at commit 3b9e1c2865290d08d5df170661128a6b6c8d3939. netket's multiple dispatch is replaced by `isinstance` tests in one `get_local_kernel` and one `get_local_kernel_arguments`, `check_hilbert` and the `LocalEstimators` wrapper are dropped, and the sum rules are given the operators' own `(σp, mels)` arguments. The variational state, the discrete operators (with `get_conn_padded`) and their sum are minimal stand-ins; a module-level log-amplitude, a trace counter in `_local_estimators_impl` and a driver taking the estimate three times with new parameters were added.
"""
import sys
from functools import partial

import jax
import jax.numpy as jnp

traces = 0


class HashablePartial(partial):
    """
    A class behaving like functools.partial, but that retains it's hash
    if it's created with a lexically equivalent (the same) function and
    with the same partially applied arguments and keywords.

    It also stores the computed hash for faster hashing.
    """

    # TODO remove when dropping support for Python < 3.10
    def __new__(cls, func, *args, **keywords):
        # In Python 3.10+ if func is itself a functools.partial instance,
        # functools.partial.__new__ would merge the arguments of this HashablePartial
        # instance with the arguments of the func
        # Pre 3.10 this does not happen, so here we emulate this behaviour recursively
        # This is necessary since functools.partial objects do not have a __code__
        # property which we use for the hash
        # For python 3.10+ we still need to take care of merging with another HashablePartial
        while isinstance(
            func, partial if sys.version_info < (3, 10) else HashablePartial
        ):
            original_func = func
            func = original_func.func
            args = original_func.args + args
            keywords = {**original_func.keywords, **keywords}
        return super().__new__(cls, func, *args, **keywords)

    def __init__(self, *args, **kwargs):
        self._hash = None

    def __eq__(self, other):
        return (
            type(other) is HashablePartial
            and self.func.__code__ == other.func.__code__
            and self.args == other.args
            and self.keywords == other.keywords
        )

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(
                (self.func.__code__, self.args, frozenset(self.keywords.items()))
            )

        return self._hash

    def __repr__(self):
        return f"<hashable partial {self.func.__name__} with args={self.args} and kwargs={self.keywords}, hash={hash(self)}>"


def batch_discrete_kernel(kernel):
    """
    Batch a kernel that only works with 1 sample so that it works with a
    batch of samples.

    Works only for discrete-kernels who take two args as inputs
    """

    def vmapped_kernel(logpsi, pars, σ, args):
        """
        local_value kernel for MCState and generic operators
        """
        σp, mels = args

        if jnp.ndim(σp) != 3:
            σp = σp.reshape((σ.shape[0], -1, σ.shape[-1]))
            mels = mels.reshape(σp.shape[:-1])

        vkernel = jax.vmap(kernel, in_axes=(None, None, 0, (0, 0)), out_axes=0)
        return vkernel(logpsi, pars, σ, (σp, mels))

    return vmapped_kernel


@batch_discrete_kernel
def local_value_kernel(logpsi, pars, σ, args):
    """
    local_value kernel for MCState and generic operators
    """
    σp, mel = args
    return jnp.sum(mel * jnp.exp(logpsi(pars, σp) - logpsi(pars, σ)))


class DiscreteOperator:
    """Stand-in: a flip of one site, with constant matrix element."""

    def __init__(self, site, mel):
        self.site = site
        self.mel = mel

    def get_conn_padded(self, σ):
        σp = σ.at[..., self.site].multiply(-1)[..., None, :]
        mels = jnp.full(σ.shape[:-1] + (1,), self.mel)
        return σp, mels


class SumGenericOperator:
    def __init__(self, operators, coefficients):
        self.operators = tuple(operators)
        self.coefficients = tuple(coefficients)


class MCState:
    def __init__(self, apply_fun, variables, samples):
        self._apply_fun = apply_fun
        self.variables = variables
        self.samples = samples


def get_local_kernel_arguments(vstate, Ô):
    if isinstance(Ô, SumGenericOperator):
        samples = vstate.samples
        args = [get_local_kernel_arguments(vstate, o)[1] for o in Ô.operators]
        return samples, (Ô.coefficients, args)
    σ = vstate.samples
    σp, mels = Ô.get_conn_padded(σ)
    return σ, (σp, mels)


def get_local_kernel(vstate, Ô, chunk_size=None):
    if isinstance(Ô, SumGenericOperator):
        return get_local_kernel_sum(vstate, Ô)
    return local_value_kernel


def get_local_kernel_sum(vs, O):
    O_kernels = tuple(get_local_kernel(vs, o) for o in O.operators)

    def sum_eval(logpsi, pars, σ, args, O_kernels):
        coeffs, O_args = args
        O_locs = 0
        for O_kernel, O_arg, k in zip(O_kernels, O_args, coeffs):
            O_locs = O_locs + k * O_kernel(logpsi, pars, σ, O_arg)
        return O_locs

    return HashablePartial(sum_eval, O_kernels=O_kernels)


@partial(jax.jit, static_argnames=("kernel", "apply_fun", "shape"))
def _local_estimators_impl(kernel, apply_fun, shape, variables, samples, extra_args):
    global traces
    traces += 1
    samples = jax.lax.collapse(samples, 0, samples.ndim - 1)
    O_loc = kernel(apply_fun, variables, samples, extra_args)
    return jax.tree_util.tree_map(lambda x: x.reshape(shape + x.shape[1:]), O_loc)


def local_estimators(vstate, Ô, chunk_size=None):
    σ, args = get_local_kernel_arguments(vstate, Ô)
    data = _local_estimators_impl(
        get_local_kernel(vstate, Ô, None),
        vstate._apply_fun,
        σ.shape[:-1],
        vstate.variables,
        σ,
        args,
    )
    return data


def log_amplitude(variables, σ):
    return σ @ variables["w"]


H = SumGenericOperator([DiscreteOperator(0, -1.0), DiscreteOperator(2, -0.5)], [1.0, 2.0])
samples = jnp.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]])
for step in range(3):
    vstate = MCState(log_amplitude, {"w": 0.1 * (step + 1) * jnp.ones(3)}, samples)
    print(jnp.mean(local_estimators(vstate, H)))
print("_local_estimators_impl traced:", traces)  # once: every call's kernel equals the first
