"""Source: https://github.com/jax-ml/jax/issues/5186 (the fix for a JAX array reaching a static argument: compute the pixel count as a Python int before the jitted call)."""
import math

import jax
import jax.numpy as jnp


def _dft(plane, nlam_d, npix):
    u = jnp.arange(npix) / npix - 0.5
    x = jnp.arange(plane.shape[0]) / plane.shape[0] - 0.5
    kernel = jnp.exp(-2j * jnp.pi * nlam_d * jnp.outer(u, x))
    return kernel @ plane.astype(jnp.complex64) @ kernel.T


minimal_dft = jax.jit(_dft, static_argnums=(2,))


def image_plane(plane, nlam_d, pixel_scale):
    npix = int(math.ceil(nlam_d / pixel_scale))
    return jnp.abs(minimal_dft(plane, nlam_d, npix))


# --- oracle ---
WRAP = False


def ENTRY():
    return image_plane, (jnp.ones((4, 4)), 2.0, 0.5)


def ALT_ARGS():
    return [(jnp.zeros((4, 4)), 2.0, 0.5)]
