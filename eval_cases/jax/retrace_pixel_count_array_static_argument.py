"""Source: https://github.com/jax-ml/jax/issues/5186 ("new version breaks arange?": the pixel count reached a jitted DFT's static argument as a JAX array, and jax.jit raised "Non-hashable static arguments are not supported")."""
import jax
import jax.numpy as jnp


def _dft(plane, nlam_d, npix):
    u = jnp.arange(npix) / npix - 0.5
    x = jnp.arange(plane.shape[0]) / plane.shape[0] - 0.5
    kernel = jnp.exp(-2j * jnp.pi * nlam_d * jnp.outer(u, x))
    return kernel @ plane.astype(jnp.complex64) @ kernel.T


minimal_dft = jax.jit(_dft, static_argnums=(2,))


def image_plane(plane, nlam_d, pixel_scale):
    npix = jnp.ceil(nlam_d / pixel_scale).astype(jnp.int32)
    return jnp.abs(minimal_dft(plane, nlam_d, npix))  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return image_plane, (jnp.ones((4, 4)), 2.0, 0.5)
