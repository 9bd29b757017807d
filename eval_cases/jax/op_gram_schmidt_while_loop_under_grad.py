"""Source: https://github.com/tensorflow/tensorflow/issues/62828 ("Jax grad doesn't work with tfp jax module's Gram-Schmidt function because of a lax for loop": `jit(grad(f))` of a loss that orthonormalizes batches of 4x4 matrices with TFP-on-JAX's `gram_schmidt` raised "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop."). Here a frame-alignment loss orthonormalizes predicted bases with a `while_loop` Gram-Schmidt and is differentiated in the jitted training step."""
import jax
import jax.numpy as jnp
from jax import lax


def gram_schmidt(vectors):
    """Orthonormalizes the columns of `vectors` (shape [..., n, m]), first to last."""
    num_vectors = vectors.shape[-1]

    def cond_fn(state):
        i, _ = state
        return i < num_vectors - 1

    def body_fn(state):
        i, vecs = state
        u = vecs[..., i] / jnp.linalg.norm(vecs[..., i], axis=-1, keepdims=True)
        weights = jnp.einsum("...m,...mn->...n", u, vecs)
        mask = jnp.arange(num_vectors) > i
        vecs = vecs - jnp.where(mask, weights, 0.0)[..., None, :] * u[..., :, None]
        vecs = jnp.where((jnp.arange(num_vectors) == i)[None, :], u[..., :, None], vecs)
        return i + 1, vecs

    _, vecs = lax.while_loop(cond_fn, body_fn, (0, vectors))
    return vecs / jnp.linalg.norm(vecs, axis=-2, keepdims=True)


def frame_loss(raw_frames, target_frames):
    frames = gram_schmidt(raw_frames)
    return jnp.mean((frames - target_frames) ** 2)


@jax.jit
def train_step(raw_frames, target_frames):
    loss, grads = jax.value_and_grad(frame_loss)(raw_frames, target_frames)  # XLA: op
    return loss, raw_frames - 0.1 * grads


# --- oracle ---
def ENTRY():
    raw = jnp.eye(4)[None] + 0.1 * jnp.sin(jnp.arange(3 * 16.0)).reshape(3, 4, 4)
    target = jnp.broadcast_to(jnp.eye(4), (3, 4, 4))
    return train_step, (raw, target)
