"""Source: https://github.com/keras-team/keras/issues/19379 (whether to crop depends only on the clip's static shape, so the decision can be a Python `if` on shapes at trace time instead of a `lax.cond`, whose branches must agree in shape). Here the jitted video preprocessing step crops with a Python `if` on the clip's static shape."""
import jax
import jax.numpy as jnp

DEPTH, HEIGHT, WIDTH = 3, 6, 5


@jax.jit
def preprocess_clip(clip):
    clip = clip / 255.0
    _, d, h, w, _ = clip.shape
    if d > DEPTH or h > HEIGHT or w > WIDTH:
        clip = clip[:, :DEPTH, :HEIGHT, :WIDTH, :]
    return clip - jnp.mean(clip)


# --- oracle ---
def ENTRY():
    clip = jnp.arange(2 * 4 * 8 * 7 * 3, dtype=jnp.float32).reshape(2, 4, 8, 7, 3)
    return preprocess_clip, (clip,)
