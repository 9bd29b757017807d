"""Source: https://github.com/jax-ml/jax/issues/4714 ("UnexpectedTracerError in optics code": in the `morphine` telescope simulator a jitted propagation stored the complex field on `self.wavefront`; later code that returned or used `wavefront` outside that trace raised "Encountered an unexpected tracer ... escaped through global state"; the maintainers: a side effect inside the transformed function stashed a Tracer). Here a small Fraunhofer propagation jits a method that stores the propagated field on the wavefront object, and the point-spread function is read from that attribute afterwards."""
import jax
import jax.numpy as jnp


class BasicWavefront:
    def __init__(self, npix):
        y, x = jnp.mgrid[:npix, :npix]
        r = jnp.hypot(x - npix / 2 + 0.5, y - npix / 2 + 0.5)
        self.pupil = (r < npix / 3).astype(jnp.complex64)
        self.wavefront = self.pupil

    def propagate(self, phase):
        field = self.pupil * jnp.exp(1j * phase)
        self.wavefront = jnp.fft.fftshift(jnp.fft.fft2(field))  # XLA: host
        return jnp.sum(jnp.abs(field) ** 2)

    def intensity(self):
        return jnp.abs(self.wavefront) ** 2


wf = BasicWavefront(8)
propagate = jax.jit(wf.propagate)


def psf(phase):
    flux = propagate(phase)
    return wf.intensity() / flux


# --- oracle ---
WRAP = False


def ENTRY():
    phase = 0.1 * jnp.sin(jnp.linspace(0.0, 6.0, 64)).reshape(8, 8)
    return psf, (phase,)
