"""Source: https://github.com/jax-ml/jax/pull/8047 ("Canonicalize shapes in jax.image.resize()": `jnp` arrays passed as the `shape` of `jax.image.resize`). The form that works under `jax.jit`: the target shape is a tuple of Python ints taken from the static input shape. (Bilinear 2x upsampler in front of a super-resolution refinement layer.)"""
import jax
import jax.numpy as jnp

SCALE = 2


@jax.jit
def upsample_and_refine(images, kernel):
    batch, height, width, channels = images.shape
    target = (batch, height * SCALE, width * SCALE, channels)
    up = jax.image.resize(images, target, method="bilinear")
    return up + jnp.einsum("bhwc,cd->bhwd", up, kernel)


# --- oracle ---
def ENTRY():
    images = jnp.arange(2 * 4 * 4 * 3, dtype=jnp.float32).reshape(2, 4, 4, 3) / 96.0
    kernel = jnp.eye(3) * 0.1
    return upsample_and_refine, (images, kernel)
