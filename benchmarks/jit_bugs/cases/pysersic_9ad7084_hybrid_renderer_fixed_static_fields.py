"""Source: https://github.com/pysersic/pysersic/blob/9ad7084e7fdfd536099a3c81c27abbf6d7e88001/pysersic/rendering.py
Library: equinox
Correct: pysersic's renderers after PR 71 ("ensuring jax arrays never get typed as static"): the static fields hold tuples of ints (`tuple(int(x) for x in ...)`), ints, floats and bools (`sig_psf_approx` is cast with float()), the index arrays are data fields, and the dict of bound render methods is kept out of the fields with `object.__setattr__`. A checker must stay silent on static shape tuples built from jnp.shape, on float() of a jnp scalar in a static field, and on an attribute set with object.__setattr__ that is no field; equal renderers built for two fits share one compilation.
Transcribed: `BaseRenderer`, `FourierRenderer` and `HybridRenderer` (fields and `__init__`) from pysersic/rendering.py at the fix commit 9ad7084e, docstrings dropped, with the same stand-ins as the bug case at its parent commit (`calculate_etas_betas`, `sersic_gauss_decomp`, a stub for the `render_*` bodies, `KernelError`) and the same driver, which now renders both fits.
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

    pixel_PSF: jax.numpy.array = eqx.field(static=False)
    PSF_fft: jax.numpy.array = eqx.field(static=False)
    X: jax.numpy.array = eqx.field(static=False)
    Y: jax.numpy.array = eqx.field(static=False)
    FX: jax.numpy.array = eqx.field(static=False)
    FY: jax.numpy.array = eqx.field(static=False)
    x_mid: float
    y_mid: float
    fft_zeros: jnp.array = eqx.field(static=False)
    img_zeros: jnp.array = eqx.field(static=False)

    def __init__(self, im_shape: Iterable, pixel_PSF: jax.numpy.array) -> None:
        self.im_shape = tuple(int(x) for x in im_shape)
        self.pixel_PSF = pixel_PSF
        if not jnp.isclose(jnp.sum(self.pixel_PSF), 1.0, 0.1):
            warnings.warn(
                "PSF does not appear to be appropriately normalized; Sum(psf) is more than 0.1 away from 1."
            )
        self.psf_shape = tuple(int(x) for x in jnp.shape(self.pixel_PSF))
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
        self.fft_shape = tuple(int(x) for x in self.FX.shape)
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
        object.__setattr__(
            self,
            "profile_func_dict",
            {
                profile_type: getattr(self, f"render_{profile_type}")
                for profile_type in base_profile_types
            },
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

    etas: jax.numpy.array = eqx.field(static=False)
    betas: jax.numpy.array = eqx.field(static=False)
    n_ax: jax.numpy.array = eqx.field(static=False)
    amps_n_ax: jax.numpy.array = eqx.field(static=False)

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
    w_real: jax.numpy.array = eqx.field(static=False)
    w_fourier: jax.numpy.array = eqx.field(static=False)
    sig_psf_approx: float = eqx.field(static=True)

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
        self.sig_psf_approx = float(0.5 * (sig_x + sig_y))


@eqx.filter_jit
def render_image(renderer, flux):  # stand-in for a fit's jitted model evaluation
    return renderer.conv_fft(renderer.fft_zeros + flux)


psf = jnp.ones((5, 5)) / 25.0
for fit in range(2):  # each fit builds its renderer
    renderer = HybridRenderer((32, 32), psf)
    render_image(renderer, 1.0)
    print("fit", fit, "rendered")
