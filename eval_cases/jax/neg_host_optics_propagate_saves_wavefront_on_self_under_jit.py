"""Source: https://github.com/jax-ml/jax/issues/4714 ("UnexpectedTracerError in optics code"; the fix the maintainers point to: keep the transformed function pure, return the propagated field instead of writing it to `self.wavefront`). Here the same Fraunhofer propagation returns the field from the jitted method and the point-spread function is computed from the returned value."""
import jax
import jax.numpy as jnp


class BasicWavefront:
    def __init__(self, npix):
        y, x = jnp.mgrid[:npix, :npix]
        r = jnp.hypot(x - npix / 2 + 0.5, y - npix / 2 + 0.5)
        self.pupil = (r < npix / 3).astype(jnp.complex64)

    def propagate(self, phase):
        field = self.pupil * jnp.exp(1j * phase)
        focal = jnp.fft.fftshift(jnp.fft.fft2(field))
        return focal, jnp.sum(jnp.abs(field) ** 2)


wf = BasicWavefront(8)
propagate = jax.jit(wf.propagate)


def psf(phase):
    focal, flux = propagate(phase)
    return jnp.abs(focal) ** 2 / flux


# --- oracle ---
WRAP = False


def ENTRY():
    phase = 0.1 * jnp.sin(jnp.linspace(0.0, 6.0, 64)).reshape(8, 8)
    return psf, (phase,)
