"""Source: https://github.com/keras-team/keras/issues/18957 (near miss: a fixed number of geodesic dilation steps is a `fori_loop` with static bounds, which JAX lowers to `scan` and can differentiate in reverse mode). Here the segmentation loss runs a fixed number of dilation steps, and the training step takes its gradient."""
import jax
import jax.numpy as jnp

N_STEPS = 8


def dilate3(x):
    padded = jnp.pad(x, 1, constant_values=-jnp.inf)
    windows = [padded[i:i + x.shape[0], j:j + x.shape[1]] for i in range(3) for j in range(3)]
    return jnp.max(jnp.stack(windows), axis=0)


def reconstruct(marker, mask):
    def body(_, x):
        return jnp.minimum(dilate3(x), mask)

    return jax.lax.fori_loop(0, N_STEPS, body, marker)


def loss(scale, image, target):
    recon = reconstruct(image * scale - 0.3, image * scale)
    return jnp.mean((recon - target) ** 2)


def train_step(scale, image, target):
    return jax.value_and_grad(loss)(scale, image, target)


# --- oracle ---
def ENTRY():
    image = jnp.outer(jnp.sin(jnp.linspace(0.0, 3.0, 8)), jnp.cos(jnp.linspace(0.0, 2.0, 8)))
    return train_step, (jnp.float32(1.2), image, 0.5 * image)
