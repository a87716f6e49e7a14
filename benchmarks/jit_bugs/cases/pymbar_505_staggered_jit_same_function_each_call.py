"""Source: https://github.com/choderalab/pymbar/pull/505
Library: plain-jax
Correct: "Correctly stagger JIT until first call": `jit_or_pass_after_bitsize` returns a wrapper that, on every call, turns on 64-bit mode if needed and then calls `jit_or_passthrough(jitable_fn)` (that is, `jax.jit`) afresh. The PR notes "This *shouldn't* break JAX's cache since the function object in question never changes so its hash wont change and we still get all the accelerated code": `jitable_fn` is the one module-level function the decorator received, and JAX keys its compiled code on that function object, so each new `jax.jit` wrapper of it reuses the code compiled on the first call. A checker that flags `jax.jit` applied inside a function that runs on every call would report it.
Transcribed: `jit_or_pass_after_bitsize`, `_jit_self_consistent_update` and `jax_self_consistent_update` from pymbar/mbar_solvers.py at 14a16b6 (the PR's commit), with the JAX-branch imports it relies on (`config` now from `jax`, as `jax.config.config` is gone); a trace counter in `_jit_self_consistent_update` and a driver running five self-consistent iterations on a small random problem were added.
"""
import logging

import numpy as np
from jax import config
from jax import jit as jit_or_passthrough
from jax.numpy import s_
from jax.scipy.special import logsumexp

logger = logging.getLogger(__name__)

use_jit = True
traces = 0


def jit_or_pass_after_bitsize(jitable_fn):
    """
    Attempt to set JAX precision if present. This does nothing if JAX is not present

    Parameters
    ----------
    jitable_fn: function
        A function which can be jit'd
    """

    def staggered_jit(*args, **kwargs):
        # This will only trigger if JAX is set
        if use_jit and not config.x64_enabled:
            # Warn that JAX 64-bit will being turned on
            logger.warning(
                "\n"
                "******* JAX 64-bit mode is now on! *******\n"
                "*     JAX is now set to 64-bit mode!     *\n"
                "*   This MAY cause problems with other   *\n"
                "*      uses of JAX in the same code.     *\n"
                "******************************************\n"
            )
            config.update("jax_enable_x64", True)
        jited_fn = jit_or_passthrough(jitable_fn)
        return jited_fn(*args, **kwargs)

    return staggered_jit


@jit_or_pass_after_bitsize
def _jit_self_consistent_update(u_kn, N_k, f_k):
    """JAX version of self_consistent update.  For parameters, see self_consistent_update.
    N_k must be float (should be cast at a higher level)

    """
    global traces
    traces += 1
    # Asteroid
    log_denominator_n = logsumexp(f_k - u_kn.T, b=N_k, axis=1)
    # All states can contribute to the numerator term. Check transpose
    return -1.0 * logsumexp(
        -log_denominator_n - u_kn, axis=1
    )  # pylint: disable=invalid-unary-operand-type


def jax_self_consistent_update(u_kn, N_k, f_k, states_with_samples=None):
    """JAX version of self_consistent update.  For parameters, see self_consistent_update.
    N_k must be float (should be cast at a higher level)

    """
    # Only the states with samples can contribute to the denominator term.
    # Precondition before feeding the op to the JIT'd function
    # In theory, this can be computed with jax.lax.cond, but trying to reuse code for non-jax paths
    states_with_samples = s_[:] if states_with_samples is None else states_with_samples
    # Feed to the JIT'd function. Can't pass slice types, so slice here
    return _jit_self_consistent_update(
        u_kn[states_with_samples], N_k[states_with_samples], f_k[states_with_samples]
    )


rng = np.random.default_rng(0)
u_kn = rng.normal(size=(3, 30))
N_k = np.full(3, 10.0)
f_k = np.zeros(3)
for _ in range(5):
    f_k = np.asarray(jax_self_consistent_update(u_kn, N_k, f_k))
    f_k = f_k - f_k[0]
print(f_k)
print("traces:", traces)  # 1: every call jits the same function object again and hits its cache
