"""Source: https://github.com/jax-ml/jax/issues/25140 ("in jax.lax.switch docstring, explain that all branch output shapes must match": `lax.switch` requires every branch to return the same output structure, shapes and dtypes, and the error for a mismatch was hard to understand). Here a jitted augmentation picks one of three policies with `lax.switch`; the centre-crop policy returns a smaller image than the identity and flip policies."""
import jax
import jax.numpy as jnp
from jax import lax


def identity(img):
    return img


def hflip(img):
    return img[:, ::-1, :]


def centre_crop(img):
    return img[2:-2, 2:-2, :]


@jax.jit
def augment(image, policy_id):
    return lax.switch(policy_id, [identity, hflip, centre_crop], image)  # XLA: cond


# --- oracle ---
def ENTRY():
    image = jnp.linspace(0.0, 1.0, 12 * 12 * 3).reshape(12, 12, 3)
    return augment, (image, jnp.int32(2))
