"""Source: https://github.com/scikit-hep/pyhf/commit/e25b11662e28b9fbbd9ca0a8c7490c30b107c270
Library: plain-jax
Reported: "get jax jit working like in master", a commit of pyhf's optimizer refactor (pull request https://github.com/scikit-hep/pyhf/pull/951). Before it, the JAX shim jitted the objective with `stitch_pars` in a static position (`static_argnums=(0, 2, 3)`), and `shim` made `stitch_pars` afresh for every fit: a closure over that fit's fixed values (or a lambda when nothing is stitched). jit hashes a function by identity, so every fit (every point of a profile-likelihood scan, where only the fixed parameter value changes) compiled the objective and its gradient again. The same day the author asked "How can we get jax to recompute after we convinced it to not re-jit?" (issue https://github.com/scikit-hep/pyhf/issues/978, after giving the stitcher a constant hash); the commit instead passes the fixed values as a traced argument and the index lists, as tuples, in static positions.
Transcribed: `_final_objective`, the two jitted functions and `wrap_objective` from src/pyhf/optimize/opt_jax.py, and `_get_tensor_shim` (its JAX branch) and `shim` from src/pyhf/optimize/common.py, at the commit's parent (5503039e, docstrings cut). pyhf is not installed: `get_backend` returns a small JAX tensorlib stand-in and `default_backend` a NumPy one, each with the methods this code calls; `_TensorViewer` is src/pyhf/tensor/common.py's cut to `__init__` and `stitch` (index bookkeeping done with NumPy; the backend-change subscription, batching and names are left out); `twice_nll` is src/pyhf/infer/mle.py's, and `Model` a stand-in counting experiment (signal strength and background normalisation, Poisson likelihood) with pyhf's `config.npars` and `logpdf(pars, data)`. The scan (three fixed values of the signal strength, each fitted with `scipy.optimize.minimize`) stands in for pyhf's scipy optimizer and a hypothesis-test scan; the count of compiled programs was added.
Hard: the fresh function is a local `def` (or lambda) of `shim` (which also returns it), passed through `_get_tensor_shim()(...)`, a function picked at run time, into `wrap_objective`, whose local `func` hands it to the module-level jitted function's static position; the loop that runs `shim` again is the module's scan.
"""
import logging

import jax
import jax.numpy as jnp
import jax.scipy.stats
import numpy as np
import scipy.optimize

log = logging.getLogger(__name__)


class _JaxTensorlib:  # stand-in for pyhf.tensor.jax_backend
    name = "jax"

    def astensor(self, x, dtype="float"):
        return jnp.asarray(x, dtype=jnp.int32 if dtype == "int" else jnp.float32)

    def tolist(self, x):
        return np.asarray(x).tolist()

    def gather(self, x, idx):
        return x[idx]

    def concatenate(self, xs, axis=0):
        return jnp.concatenate(xs, axis=axis)

    def shape(self, x):
        return jnp.shape(x)


class _NumpyBackend:  # stand-in for pyhf.default_backend (the numpy backend)
    name = "numpy"

    def astensor(self, x, dtype="float"):
        return np.asarray(x, dtype=np.int64 if dtype == "int" else np.float64)

    def tolist(self, x):
        return np.asarray(x).tolist()


_tensorlib = _JaxTensorlib()
default_backend = _NumpyBackend()


def get_backend():  # stand-in for pyhf.get_backend
    return _tensorlib, None


class _TensorViewer:
    def __init__(self, indices, batch_size=None, names=None):
        self.batch_size = batch_size
        self.names = names
        self._partition_indices = indices
        _concat_indices = np.asarray(np.concatenate(self._partition_indices), dtype=int)
        self._sorted_indices = _concat_indices.argsort().tolist()
        self._precompute()

    def _precompute(self):
        tensorlib, _ = get_backend()
        self.sorted_indices = tensorlib.astensor(self._sorted_indices, dtype="int")
        self.partition_indices = [
            tensorlib.astensor(idx, dtype="int") for idx in self._partition_indices
        ]

    def stitch(self, data):
        tensorlib, _ = get_backend()
        assert len(self.partition_indices) == len(data)

        data = tensorlib.concatenate(data, axis=-1)
        return tensorlib.gather(data, self.sorted_indices)


def twice_nll(pars, data, pdf):
    return -2 * pdf.logpdf(pars, data)


class _ModelConfig:
    npars = 2


class Model:  # stand-in for pyhf.pdf.Model: one-bin counting experiment
    def __init__(self, signal, background):
        self.config = _ModelConfig()
        self.signal = signal
        self.background = background

    def logpdf(self, pars, data):
        mu, bkg_norm = pars[0], pars[1]
        expected = mu * self.signal + bkg_norm * self.background
        return jnp.atleast_1d(jnp.sum(jax.scipy.stats.poisson.logpmf(data, expected)))


def _final_objective(objective, data, pdf, stitch_pars, pars):
    tensorlib, _ = get_backend()
    pars = tensorlib.astensor(pars)
    constrained_pars = stitch_pars(pars)
    return objective(constrained_pars, data, pdf)[0]


_jitted_objective_and_grad = jax.jit(
    jax.value_and_grad(_final_objective, argnums=4), static_argnums=(0, 2, 3)
)

_jitted_objective = jax.jit(_final_objective, static_argnums=(0, 2, 3))


def wrap_objective(objective, data, pdf, stitch_pars, do_grad=False):
    """Wrap the objective function for the minimization."""
    tensorlib, _ = get_backend()

    if do_grad:

        def func(pars):
            # need to conver to tuple to make args hashable
            return _jitted_objective_and_grad(objective, data, pdf, stitch_pars, pars,)  # expect: static-fresh-callable

    else:

        def func(pars):
            # need to conver to tuple to make args hashable
            return _jitted_objective(objective, data, pdf, stitch_pars, pars,)  # expect: static-fresh-callable

    return func


def _get_tensor_shim():
    """A shim-retriever to lazy-retrieve the necessary shims as needed."""
    tensorlib, _ = get_backend()
    if tensorlib.name == 'jax':
        return wrap_objective
    raise ValueError(f'No optimizer shim for {tensorlib.name}.')


def shim(
    objective,
    data,
    pdf,
    init_pars,
    par_bounds,
    fixed_vals=None,
    do_grad=False,
    do_stitch=False,
):
    """Prepare Minimization for Optimizer."""
    tensorlib, _ = get_backend()

    if do_stitch:
        all_init = default_backend.astensor(init_pars)
        all_idx = default_backend.astensor(range(pdf.config.npars), dtype='int')

        fixed_vals = fixed_vals or []
        fixed_values = [x[1] for x in fixed_vals]
        fixed_idx = [x[0] for x in fixed_vals]

        variable_idx = [x for x in all_idx if x not in fixed_idx]
        variable_init = default_backend.tolist(all_init[variable_idx])
        variable_bounds = [par_bounds[i] for i in variable_idx]
        # stitched out the fixed values, so we don't pass any to the underlying minimizer
        minimizer_fixed_vals = []

        tv = _TensorViewer([fixed_idx, variable_idx])
        # NB: this is a closure, tensorlib needs to be accessed at a different point in time
        def stitch_pars(pars, stitch_with=fixed_values):
            tb, _ = get_backend()
            return tv.stitch([tb.astensor(fixed_values, dtype='float'), pars])
    else:
        variable_init = init_pars
        variable_bounds = par_bounds
        minimizer_fixed_vals = fixed_vals
        stitch_pars = lambda pars, stitch_with=None: pars

    objective_and_grad = _get_tensor_shim()(
        objective, tensorlib.astensor(data), pdf, stitch_pars, do_grad=do_grad,
    )

    minimizer_kwargs = dict(
        func=objective_and_grad,
        x0=variable_init,
        do_grad=do_grad,
        bounds=variable_bounds,
        fixed_vals=minimizer_fixed_vals,
    )
    return minimizer_kwargs, stitch_pars


pdf = Model(signal=jnp.asarray([5.0]), background=jnp.asarray([50.0]))
data = [55.0]
for mu in [0.5, 1.0, 1.5]:
    kwargs, stitch_pars = shim(twice_nll, data, pdf, [1.0, 1.0], [(0.0, 10.0), (0.1, 10.0)],
                               fixed_vals=[(0, mu)], do_grad=True, do_stitch=True)
    func = kwargs["func"]
    result = scipy.optimize.minimize(
        lambda x: tuple(np.asarray(v, dtype=float) for v in func(jnp.asarray(x))),
        kwargs["x0"], jac=True, bounds=kwargs["bounds"], method="L-BFGS-B",
    )
    true_value = float(twice_nll(stitch_pars(jnp.asarray(result.x)), jnp.asarray(data), pdf)[0])
    print(f"mu={mu}: bkg_norm={result.x[0]:.3f}, twice_nll={result.fun:.3f} "
          f"(un-jitted at that point: {true_value:.3f}), "
          f"compiled programs: {_jitted_objective_and_grad._cache_size()}")
