"""Source: https://github.com/pysersic/pysersic/pull/71
Library: equinox
Reported: "minor adjustments for new equinox user warnings": equinox warned "A JAX array is being set as static!" for pysersic's renderers; the PR ensures "jax arrays never get typed as static": `HybridRenderer.w_real` and `w_fourier` (jnp.arange index arrays) were `eqx.field(static=True)`, and `sig_psf_approx`, a static field declared float, was assigned a jnp scalar computed from the PSF in `__init__`; the fix marks the arrays static=False and casts the scalar with float(). With arrays in the static part of the treedef, a second renderer built for the next fit (equal arrays, other buffers) makes jit compare the arrays with `==` instead of finding the compiled code.
Transcribed: `BaseRenderer` (fields and `__init__`), `FourierRenderer` and `HybridRenderer` (fields and `__init__`) from pysersic/rendering.py at the parent of the fix (9ad7084^), unchanged but for docstrings; `calculate_etas_betas` and `sersic_gauss_decomp` are stand-ins returning arrays of the right shapes, the bodies of the `render_*` methods are replaced by a stub (only their existence is read, by the profile_func_dict loop), `KernelError` is a stand-in. Added a driver that builds the renderer twice, as two fits do, and renders through an `eqx.filter_jit` function.
Hard: `w_real`/`w_fourier` are declared `jax.numpy.array` and marked static; `sig_psf_approx` is declared float and gets a jnp scalar only in `__init__` (0.5 * (sig_x + sig_y) of two jnp.sqrt results).
Not marked: `im_shape`, `psf_shape`, `fft_shape` hold tuples of ints (jnp.shape and .shape return tuples); `profile_func_dict` is a static dict of bound methods filled in `__init__` and never changed afterwards (the PR moves it out of the fields, which is the strict rule, not a bug shown here).
"""
import warnings
from typing import Iterable, Optional

import equinox as eqx
import jax
import jax.numpy as jnp

base_profile_types = [
    "sersic",
    "doublesersic",
    "sersic_exp",
    "sersic_pointsource",
    "pointsource",
    "exp",
    "dev",
    "spergel",
]


class KernelError(Exception):  # stand-in for pysersic.exceptions.KernelError
    pass


def calculate_etas_betas(precision):  # stand-in
    return jnp.ones(2 * precision + 1), jnp.ones(2 * precision + 1)


def sersic_gauss_decomp(flux, r_eff, n, etas, betas, frac_start, frac_end, n_sigma):  # stand-in
    return jnp.ones(n_sigma) * flux * n, jnp.logspace(jnp.log10(frac_start), jnp.log10(frac_end), n_sigma)


class BaseRenderer(eqx.Module):
    im_shape: tuple = eqx.field(static=True)
    psf_shape: tuple = eqx.field(static=True)
    fft_shape: tuple = eqx.field(static=True)
    profile_func_dict: dict = eqx.field(static=True)

    pixel_PSF: jax.numpy.array
    PSF_fft: jax.numpy.array
    X: jax.numpy.array
    Y: jax.numpy.array
    FX: jax.numpy.array
    FY: jax.numpy.array
    x_mid: float
    y_mid: float
    fft_zeros: jnp.array
    img_zeros: jnp.array

    def __init__(self, im_shape: Iterable, pixel_PSF: jax.numpy.array) -> None:
        self.im_shape = im_shape
        self.pixel_PSF = pixel_PSF
        if not jnp.isclose(jnp.sum(self.pixel_PSF), 1.0, 0.1):
            warnings.warn(
                "PSF does not appear to be appropriately normalized; Sum(psf) is more than 0.1 away from 1."
            )
        self.psf_shape = jnp.shape(self.pixel_PSF)
        if jnp.any(self.im_shape < self.psf_shape):
            raise KernelError(
                "PSF pixel image size must be smaller than science image."
            )
        x = jnp.arange(self.im_shape[0])
        y = jnp.arange(self.im_shape[1])
        self.X, self.Y = jnp.meshgrid(x, y)
        self.x_mid = self.im_shape[0] / 2.0 - 0.5
        self.y_mid = self.im_shape[1] / 2.0 - 0.5

        # Set up pre-FFTed PSF
        f1d1 = jnp.fft.rfftfreq(self.im_shape[0])
        f1d2 = jnp.fft.fftfreq(self.im_shape[1])
        self.FX, self.FY = jnp.meshgrid(f1d1, f1d2)
        self.fft_shape = self.FX.shape
        fft_shift_arr_x = jnp.exp(
            jax.lax.complex(0.0, -1.0)
            * 2.0
            * 3.1415
            * -1
            * (self.psf_shape[0] / 2.0 - 0.5)
            * self.FX
        )
        fft_shift_arr_y = jnp.exp(
            jax.lax.complex(0.0, -1.0)
            * 2.0
            * 3.1415
            * -1
            * (self.psf_shape[1] / 2.0 - 0.5)
            * self.FY
        )
        self.PSF_fft = (
            jnp.fft.rfft2(self.pixel_PSF, s=self.im_shape)
            * fft_shift_arr_x
            * fft_shift_arr_y
        )

        # All the  renderers here these profile types
        self.profile_func_dict = {}
        for profile_type in base_profile_types:
            self.profile_func_dict[profile_type] = getattr(
                self, f"render_{profile_type}"
            )

        self.fft_zeros = jnp.zeros(self.fft_shape)
        self.img_zeros = jnp.zeros(self.im_shape)

    def conv_fft(self, F_im):
        im = jnp.fft.irfft2(F_im * self.PSF_fft, s=self.im_shape)
        return im

    def _render_stub(self, params: dict):  # stand-in for the bodies of the render_* methods
        return self.fft_zeros, self.img_zeros, self.img_zeros

    render_sersic = render_doublesersic = render_sersic_exp = _render_stub
    render_sersic_pointsource = render_pointsource = render_exp = _render_stub
    render_dev = render_spergel = _render_stub


class FourierRenderer(BaseRenderer):
    frac_start: float = eqx.field(static=True)
    frac_end: float = eqx.field(static=True)
    n_sigma: int = eqx.field(static=True)
    precision: int = eqx.field(static=True)
    use_interp_amps: bool = eqx.field(static=True)

    etas: jax.numpy.array
    betas: jax.numpy.array
    n_ax: jax.numpy.array
    amps_n_ax: jax.numpy.array

    def __init__(
        self,
        im_shape: Iterable,
        pixel_PSF: jax.numpy.array,
        frac_start: Optional[float] = 1e-2,
        frac_end: Optional[float] = 15.0,
        n_sigma: Optional[int] = 15,
        precision: Optional[int] = 10,
        use_interp_amps: Optional[bool] = True,
    ) -> None:
        super().__init__(im_shape, pixel_PSF)
        self.frac_start = frac_start
        self.frac_end = frac_end
        self.n_sigma = n_sigma
        self.precision = precision
        self.use_interp_amps = use_interp_amps
        self.etas, self.betas = calculate_etas_betas(self.precision)
        if not use_interp_amps and not jax.config.x64_enabled:
            warnings.warn(
                "!! WARNING !! - Gaussian decomposition can be numerically unstable when using jax's default 32 bit. Please either enable jax 64 bit or set 'use_poly_amps' = True in the renderer kwargs"
            )

        # Fit polynomial for smooth interpolation
        self.n_ax = jnp.linspace(0.65, 8.0, num=50)
        self.amps_n_ax = jax.vmap(
            lambda n: sersic_gauss_decomp(
                1.0,
                1.0,
                n,
                self.etas,
                self.betas,
                self.frac_start,
                self.frac_end,
                self.n_sigma,
            )[0]
        )(self.n_ax)


class HybridRenderer(FourierRenderer):
    num_pixel_render: int = eqx.field(static=True)
    w_real: jax.numpy.array = eqx.field(static=True)  # expect: static-dynamic-child
    w_fourier: jax.numpy.array = eqx.field(static=True)  # expect: static-dynamic-child
    sig_psf_approx: float = eqx.field(static=True)  # expect: static-dynamic-child

    def __init__(
        self,
        im_shape: Iterable,
        pixel_PSF: jax.numpy.array,
        frac_start: Optional[float] = 1e-2,
        frac_end: Optional[float] = 15.0,
        n_sigma: Optional[int] = 15,
        num_pixel_render: Optional[int] = 3,
        precision: Optional[int] = 10,
        use_interp_amps: Optional[bool] = True,
    ) -> None:
        super().__init__(
            im_shape,
            pixel_PSF,
            frac_start,
            frac_end,
            n_sigma,
            precision,
            use_interp_amps,
        )

        self.num_pixel_render = num_pixel_render
        self.w_real = jnp.arange(
            self.n_sigma - self.num_pixel_render, self.n_sigma, dtype=jnp.int32
        )
        self.w_fourier = jnp.arange(
            self.n_sigma - self.num_pixel_render, dtype=jnp.int32
        )

        psf_X, psf_Y = jnp.meshgrid(
            jnp.arange(self.psf_shape[0]), jnp.arange(self.psf_shape[1])
        )
        sig_x = jnp.sqrt(
            (self.pixel_PSF * (psf_X - psf_X.mean()) ** 2).sum() / self.pixel_PSF.sum()
        )
        sig_y = jnp.sqrt(
            (self.pixel_PSF * (psf_Y - psf_Y.mean()) ** 2).sum() / self.pixel_PSF.sum()
        )
        self.sig_psf_approx = 0.5 * (sig_x + sig_y)


@eqx.filter_jit
def render_image(renderer, flux):  # stand-in for a fit's jitted model evaluation
    return renderer.conv_fft(renderer.fft_zeros + flux)


psf = jnp.ones((5, 5)) / 25.0
for fit in range(2):  # each fit builds its renderer
    renderer = HybridRenderer((32, 32), psf)
    render_image(renderer, 1.0)
    print("fit", fit, "rendered")
