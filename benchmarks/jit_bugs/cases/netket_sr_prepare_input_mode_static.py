"""Source: https://github.com/netket/netket/blob/fbfdcfb66e946c96cb6136c41f2bc57670d5cc32/netket/_src/ngd/sr_srt_common.py
Library: plain-jax
Correct: _prepare_input is jitted through functools.partial(jax.jit, static_argnames=("mode",)) and mode is keyword-only, so the string "real" or "complex" passed as mode=... is a static argument (hashable, compared by value) that selects the branch at trace time; the jacobian and the local energies are arrays in traced positions. One compilation per mode string and input shape.
Transcribed: _prepare_input copied from the file (its docstring shortened); the netket imports and _sr_srt_common, which calls it with mode=mode, were cut; a real and a complex jacobian with local energies, and calls with mode="real" and mode="complex" (as _sr_srt_common passes them), were added.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("mode",))
def _prepare_input(
    O_L,
    local_grad,
    *,
    mode: str,
) -> tuple[jax.Array, jax.Array]:
    r"""
    Prepare the input for the SR/SRt solvers.

    Args:
        O_L: The jacobian of the ansatz.
        local_grad: The local energies.
        mode: The mode of the jacobian: `'real'` or `'complex'`.

    Returns:
        The reshaped jacobian and the reshaped local energies.
    """
    N_mc = O_L.shape[0]

    local_grad = local_grad.flatten()
    de = local_grad - jnp.mean(local_grad)

    O_L = O_L / jnp.sqrt(N_mc)
    dv = 2.0 * de / jnp.sqrt(N_mc)

    if mode == "complex":
        # Concatenate the real and imaginary derivatives of the ansatz
        # (#ns, 2, np) -> (#ns*2, np)
        O_L = jax.lax.collapse(O_L, 0, 2)

        # (#ns, 2) -> (#ns*2)
        dv2 = jnp.stack([jnp.real(dv), jnp.imag(dv)], axis=-1)
        dv = jax.lax.collapse(dv2, 0, 2)
    elif mode == "real":
        dv = dv.real
    else:
        raise NotImplementedError()
    return O_L, dv


n_samples, n_params = 8, 5
key_j, key_e = jax.random.split(jax.random.key(0))
local_energies = jax.random.normal(key_e, (n_samples,)) + 1j * jnp.ones(n_samples)

jac_real = jax.random.normal(key_j, (n_samples, n_params))
O_L, dv = _prepare_input(jac_real, local_energies, mode="real")
print(O_L.shape, dv.shape)

jac_complex = jax.random.normal(key_j, (n_samples, 2, n_params))
O_L, dv = _prepare_input(jac_complex, local_energies, mode="complex")
print(O_L.shape, dv.shape)
