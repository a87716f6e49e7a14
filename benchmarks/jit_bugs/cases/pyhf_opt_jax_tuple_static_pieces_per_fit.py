"""Source: https://github.com/scikit-hep/pyhf/blob/b3dc4bb20a5ee8495718bba1efaa86e9f9fce074/src/pyhf/optimize/opt_jax.py
Library: plain-jax
Correct: pyhf's JAX optimizer shim jits the objective's value-and-gradient once, at module level, with the fixed and floating parameter indices, the stitching flag, the objective function and the statistical model (`pdf`) static. `shim` builds the indices as fresh lists for every fit, and `wrap_objective` converts them with `tuple(...)` at the call ("need to convert to tuple to make args hashable"), so a fit repeated for each value of the parameter of interest (a profile-likelihood scan, where only the fixed value changes and is traced) hits the same compiled code; the objective is a module-level function and the model is built once. A checker that follows the lists from `shim` into the static positions without seeing the `tuple(...)` at the call, or that reports the model object because its class is identity-hashed, would flag it.
Transcribed: src/pyhf/optimize/opt_jax.py at the commit named, whole; `shim` from src/pyhf/optimize/common.py cut to its `do_stitch=True` path (the `stitch_pars` closure it also returns is left out, and `None` is passed in its place) and `_TensorViewer` from src/pyhf/tensor/common.py cut to `__init__` and `stitch` (its index bookkeeping done with NumPy instead of pyhf's default backend; the backend-change subscription, batching and names are left out); `twice_nll` from src/pyhf/infer/mle.py. pyhf is not installed: `get_backend` returns a small JAX tensorlib stand-in with the five methods this code calls, and `Model` is a stand-in counting experiment (signal strength and background normalisation, Poisson likelihood) with pyhf's `config.npars` and `logpdf(pars, data)` returning a one-element array. The scan loop (three fixed values of the signal strength, each fitted with `scipy.optimize.minimize`) stands in for pyhf's scipy optimizer and a hypothesis-test scan, and the compile count was added.
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


_tensorlib = _JaxTensorlib()


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


def _final_objective(
    pars, data, fixed_values, fixed_idx, variable_idx, do_stitch, objective, pdf
):
    log.debug("jitting function")
    tensorlib, _ = get_backend()
    pars = tensorlib.astensor(pars)
    if do_stitch:
        tv = _TensorViewer([fixed_idx, variable_idx])
        constrained_pars = tv.stitch(
            [tensorlib.astensor(fixed_values, dtype="float"), pars]
        )
    else:
        constrained_pars = pars
    return objective(constrained_pars, data, pdf)[0]


_jitted_objective_and_grad = jax.jit(
    jax.value_and_grad(_final_objective, argnums=0), static_argnums=(3, 4, 5, 6, 7)
)

_jitted_objective = jax.jit(_final_objective, static_argnums=(3, 4, 5, 6, 7))


def wrap_objective(objective, data, pdf, _stitch_pars, do_grad=False, jit_pieces=None):
    # NB: tuple arguments that need to be hashable (static_argnums)
    if do_grad:

        def func(pars):
            # need to convert to tuple to make args hashable
            return _jitted_objective_and_grad(
                pars,
                data,
                jit_pieces["fixed_values"],
                tuple(jit_pieces["fixed_idx"]),
                tuple(jit_pieces["variable_idx"]),
                jit_pieces["do_stitch"],
                objective,
                pdf,
            )

    else:

        def func(pars):
            # need to convert to tuple to make args hashable
            return _jitted_objective(
                pars,
                data,
                jit_pieces["fixed_values"],
                tuple(jit_pieces["fixed_idx"]),
                tuple(jit_pieces["variable_idx"]),
                jit_pieces["do_stitch"],
                objective,
                pdf,
            )

    return func


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
    tensorlib, _ = get_backend()
    fixed_vals = fixed_vals or []
    fixed_idx = [x[0] for x in fixed_vals]
    fixed_values = [x[1] for x in fixed_vals]
    variable_idx = [x for x in range(pdf.config.npars) if x not in fixed_idx]

    all_init = tensorlib.astensor(init_pars)
    variable_init = tensorlib.tolist(
        tensorlib.gather(all_init, tensorlib.astensor(variable_idx, dtype="int"))
    )
    variable_bounds = [par_bounds[i] for i in variable_idx]
    minimizer_fixed_vals = []

    objective_and_grad = wrap_objective(
        objective,
        tensorlib.astensor(data),
        pdf,
        None,
        do_grad=do_grad,
        jit_pieces={
            "fixed_idx": fixed_idx,
            "variable_idx": variable_idx,
            "fixed_values": fixed_values,
            "do_stitch": do_stitch,
        },
    )

    minimizer_kwargs = {
        "func": objective_and_grad,
        "x0": variable_init,
        "do_grad": do_grad,
        "bounds": variable_bounds,
        "fixed_vals": minimizer_fixed_vals,
    }
    return minimizer_kwargs


pdf = Model(signal=jnp.asarray([5.0]), background=jnp.asarray([50.0]))
data = [55.0]
for mu in [0.5, 1.0, 1.5]:
    kwargs = shim(twice_nll, data, pdf, [1.0, 1.0], [(0.0, 10.0), (0.1, 10.0)],
                  fixed_vals=[(0, mu)], do_grad=True, do_stitch=True)
    func = kwargs["func"]
    result = scipy.optimize.minimize(
        lambda x: tuple(np.asarray(v, dtype=float) for v in func(jnp.asarray(x))),
        kwargs["x0"], jac=True, bounds=kwargs["bounds"], method="L-BFGS-B",
    )
    print(f"mu={mu}: bkg_norm={result.x[0]:.3f}, twice_nll={result.fun:.3f}")
print("compiles:", _jitted_objective_and_grad._cache_size())  # 1 for the whole scan
