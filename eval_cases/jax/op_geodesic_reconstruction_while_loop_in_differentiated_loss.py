"""Source: https://github.com/keras-team/keras/issues/18957 ("Issue with Backpropagation on keras.ops.while_loop (in Jax)": a morphological-reconstruction layer iterated geodesic dilations in a while loop until the image stopped changing; it trained on TensorFlow and PyTorch, but with the JAX backend the backward pass failed because `lax.while_loop` has no reverse-mode rule). Here a segmentation loss runs geodesic dilation to convergence in `jax.lax.while_loop`, and the training step takes its gradient."""
import jax
import jax.numpy as jnp


def dilate3(x):
    padded = jnp.pad(x, 1, constant_values=-jnp.inf)
    windows = [padded[i:i + x.shape[0], j:j + x.shape[1]] for i in range(3) for j in range(3)]
    return jnp.max(jnp.stack(windows), axis=0)


def reconstruct(marker, mask):
    def cond(state):
        last, new = state
        return jnp.any(last != new)

    def body(state):
        _, new = state
        return new, jnp.minimum(dilate3(new), mask)

    _, out = jax.lax.while_loop(cond, body, (marker, jnp.minimum(dilate3(marker), mask)))  # XLA: op
    return out


def loss(scale, image, target):
    recon = reconstruct(image * scale - 0.3, image * scale)
    return jnp.mean((recon - target) ** 2)


def train_step(scale, image, target):
    return jax.value_and_grad(loss)(scale, image, target)


# --- oracle ---
def ENTRY():
    image = jnp.outer(jnp.sin(jnp.linspace(0.0, 3.0, 8)), jnp.cos(jnp.linspace(0.0, 2.0, 8)))
    return train_step, (jnp.float32(1.2), image, 0.5 * image)
