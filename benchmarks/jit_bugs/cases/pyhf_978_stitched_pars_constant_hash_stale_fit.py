"""Source: https://github.com/scikit-hep/pyhf/issues/978
Library: plain-jax
Reported: "Hash Hacking: jax no re-jit but no re-compute too?": during pyhf's optimizer refactor (pull request https://github.com/scikit-hep/pyhf/pull/951) the JAX shim jitted the objective with the parameter stitcher in a static position, and `shim` made a new stitcher for every fit, so every fit compiled again. To stop that, the author turned the stitcher into `StitchedPars`, whose `__hash__` is a constant and whose `__eq__` is always True: "How can we get jax to recompute after we convinced it to not re-jit?" Every fit now finds the program compiled for the first fit, with the first fit's fixed values (the point of a profile-likelihood scan) stitched in as constants, so later fits minimise the wrong objective and return the first fit's result. Commit e25b116 ("get jax jit working like in master") dropped the stitcher from the static positions and passed the fixed values as a traced argument.
Transcribed: the issue's `StitchedPars`, as written, used where `shim` made its stitching closure (`StitchedPars(tv, fixed_values)`, and `StitchedPars()` where nothing is stitched, matching the closure's captured names and the identity lambda it replaced); `_final_objective`, the two jitted functions and `wrap_objective` from src/pyhf/optimize/opt_jax.py, and `_get_tensor_shim` (its JAX branch) and `shim` from src/pyhf/optimize/common.py, at 5503039e, the PR-branch commit of that day (docstrings cut). pyhf is not installed: `get_backend` returns a small JAX tensorlib stand-in and `default_backend` a NumPy one; `_TensorViewer` is src/pyhf/tensor/common.py's cut to `__init__` and `stitch`; `twice_nll` is src/pyhf/infer/mle.py's, and `Model` a stand-in counting experiment (signal strength and background normalisation, Poisson likelihood). The scan (three fixed values of the signal strength, each fitted with `scipy.optimize.minimize`) and the comparison with the un-jitted objective at the fitted point were added.
Hard: `StitchedPars` defines both `__hash__` and `__eq__`, but neither reads an attribute: every instance is equal to every other, while the traced code reads `self.tv` and `self.fixed_values`, which differ from fit to fit; the instances are made by `shim` in the module's scan loop and reach the static position through `_get_tensor_shim()(...)`, a function picked at run time, and `wrap_objective`'s local `func`. The code is the nearest the checker has: a static value whose hash and equality do not follow the state the traced code reads (its fix: `__hash__` and `__eq__` over its values).
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


class StitchedPars(object):
  def __init__(self, tv=None, fixed_values=None):
    self.tv = tv
    self.fixed_values = fixed_values

  def __call__(self, pars, stitch_with=None):
      fixed_values = stitch_with or self.fixed_values
      if self.tv:
          tb, _ = get_backend()
          return self.tv.stitch([tb.astensor(fixed_values, dtype='float'), pars])
      else:
          return pars
  def __hash__(self):
      return hash('thisisauniquehash')
  def __eq__(self, other):
      return True


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
            return _jitted_objective_and_grad(objective, data, pdf, stitch_pars, pars,)  # expect: static-identity-hash

    else:

        def func(pars):
            # need to conver to tuple to make args hashable
            return _jitted_objective(objective, data, pdf, stitch_pars, pars,)  # expect: static-identity-hash

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
        stitch_pars = StitchedPars(tv, fixed_values)
    else:
        variable_init = init_pars
        variable_bounds = par_bounds
        minimizer_fixed_vals = fixed_vals
        stitch_pars = StitchedPars()

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
