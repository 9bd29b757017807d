"""Source: https://github.com/jax-ml/jax/issues/25140 ("in jax.lax.switch docstring, explain that all branch output shapes must match": all `lax.switch` branches must return the same structure, shapes and dtypes). Near miss: the centre-crop policy pads the crop back to the input size with edge values, so all three branches return images of one shape."""
import jax
import jax.numpy as jnp
from jax import lax


def identity(img):
    return img


def hflip(img):
    return img[:, ::-1, :]


def centre_crop(img):
    return jnp.pad(img[2:-2, 2:-2, :], ((2, 2), (2, 2), (0, 0)), mode="edge")


@jax.jit
def augment(image, policy_id):
    return lax.switch(policy_id, [identity, hflip, centre_crop], image)


# --- oracle ---
def ENTRY():
    image = jnp.linspace(0.0, 1.0, 12 * 12 * 3).reshape(12, 12, 3)
    return augment, (image, jnp.int32(2))
