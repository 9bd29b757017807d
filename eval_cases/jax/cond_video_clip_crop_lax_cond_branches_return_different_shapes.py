"""Source: https://github.com/keras-team/keras/issues/19379 ("`keras.ops.cond` issue in jax": `ops.cond(do_pad, lambda: x[:, :depth, :height, :width, :], lambda: x)` worked with the TensorFlow and torch backends but failed with JAX, because `lax.cond` requires both branches to return the same shape and the cropped clip is smaller than the original). Here a jitted video preprocessing step crops a clip to the model's depth/height/width inside a `jax.lax.cond` whose other branch returns the clip unchanged."""
import jax
import jax.numpy as jnp

DEPTH, HEIGHT, WIDTH = 3, 6, 5


@jax.jit
def preprocess_clip(clip, needs_crop):
    clip = clip / 255.0
    out = jax.lax.cond(  # XLA: cond
        needs_crop,
        lambda: clip[:, :DEPTH, :HEIGHT, :WIDTH, :],
        lambda: clip,
    )
    return out - jnp.mean(out)


# --- oracle ---
def ENTRY():
    clip = jnp.arange(2 * 4 * 8 * 7 * 3, dtype=jnp.float32).reshape(2, 4, 8, 7, 3)
    return preprocess_clip, (clip, jnp.bool_(True))
