"""Source: https://github.com/jax-ml/jax/pull/8047 ("Canonicalize shapes in jax.image.resize()": users passed `jnp` arrays, and even floats, as the `shape` of `jax.image.resize`; the change makes concrete arrays work, but a shape array built inside `jax.jit` is traced and is still rejected: "Shapes must be 1D sequences of concrete values of integer type"). Here a jitted super-resolution upsampler builds the target shape with `jnp.array` from the input's static shape and the scale factor before resizing. (Bilinear 2x upsampler in front of a super-resolution refinement layer.)"""
import jax
import jax.numpy as jnp

SCALE = 2


@jax.jit
def upsample_and_refine(images, kernel):
    batch, height, width, channels = images.shape
    target = jnp.array([batch, height * SCALE, width * SCALE, channels])
    up = jax.image.resize(images, target, method="bilinear")  # XLA: shape
    return up + jnp.einsum("bhwc,cd->bhwd", up, kernel)


# --- oracle ---
def ENTRY():
    images = jnp.arange(2 * 4 * 4 * 3, dtype=jnp.float32).reshape(2, 4, 4, 3) / 96.0
    kernel = jnp.eye(3) * 0.1
    return upsample_and_refine, (images, kernel)
