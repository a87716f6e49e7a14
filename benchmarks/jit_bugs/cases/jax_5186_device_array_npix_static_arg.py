"""Source: https://github.com/jax-ml/jax/issues/5186
Library: plain-jax
Reported: minimal_dft, minimal_dft_prim jitted with npix static, works when npix is the Python int 1 but fails when npix is a DeviceArray (np.array(1), np being jax.numpy): 'Non-hashable static arguments are not supported ... Static argument (index 2) of type <class 'jax.interpreters.xla._DeviceArray'> for function minimal_dft_prim is non-hashable.' The unjitted minimal_dft_prim works with either.
Transcribed: the comment's snippet with its output comments. The stored copy of the thread does not hold the definitions of minimal_dft_prim and minimal_dft, so a minimal matrix DFT (nlamD and npix used as Python numbers, which the thread's arange discussion needs static) and `minimal_dft = jit(minimal_dft_prim, static_argnums=(1, 2))` (index 2 static, as the error message says) were added; np is jax.numpy, as the DeviceArray in the error shows.
Hard: npix is an int at the first jitted call and a jax array at the second; only the second call's value is wrong for its static position.
"""
import jax.numpy as np
from jax import jit


def minimal_dft_prim(plane, nlamD, npix):
    npupY, npupX = plane.shape
    Xs = (np.arange(npupX) - npupX / 2 + 0.5) / npupX
    Ys = (np.arange(npupY) - npupY / 2 + 0.5) / npupY
    Us = nlamD / npix * (np.arange(npix) - npix / 2 + 0.5)
    Vs = nlamD / npix * (np.arange(npix) - npix / 2 + 0.5)
    expXU = np.exp(-2j * np.pi * np.outer(Xs, Us))
    expYV = np.exp(-2j * np.pi * np.outer(Vs, Ys))
    norm = nlamD / np.sqrt(npupY * npupX * npix * npix)
    return norm * expYV @ plane @ expXU


minimal_dft = jit(minimal_dft_prim, static_argnums=(1, 2))

plane = np.ones((4, 5))
nlamD = 1
npix = 1

minimal_dft_prim(plane, nlamD, npix)
# DeviceArray([[4.472136+0.j]], dtype=complex64)
minimal_dft(plane, nlamD, npix)
# DeviceArray([[4.472136+0.j]], dtype=complex64)

plane = np.ones((4, 5))
nlamD = 1
npix = np.array(1)

minimal_dft_prim(plane, nlamD, npix)
# DeviceArray([[4.472136+0.j]], dtype=complex64)
minimal_dft(plane, nlamD, npix)  # expect: static-dynamic-child
