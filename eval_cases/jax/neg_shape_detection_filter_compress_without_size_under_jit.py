"""Source: https://github.com/jax-ml/jax/issues/38603 (the documented way to use `jnp.compress` under `jax.jit`: pass a static `size`, so the output has a fixed length and is padded with `fill_value`). Here the detection post-processor compresses to a fixed number of slots and averages only the valid ones with a count of the kept boxes."""
import jax
import jax.numpy as jnp

SCORE_THRESHOLD = 0.4
MAX_BOXES = 6


@jax.jit
def confident_box_mean(boxes, scores):
    keep = scores > SCORE_THRESHOLD
    kept = jnp.compress(keep, boxes, axis=0, size=MAX_BOXES, fill_value=0.0)
    return kept.sum(axis=0) / jnp.maximum(keep.sum(), 1)


# --- oracle ---
def ENTRY():
    boxes = jnp.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0], [0.5, 0.5, 1.5, 2.5],
                       [2.0, 0.0, 4.0, 1.0], [1.0, 2.0, 2.0, 3.0], [0.0, 1.0, 1.0, 2.0]])
    scores = jnp.array([0.1, 0.9, 0.5, 0.2, 0.8, 0.3])
    return confident_box_mean, (boxes, scores)
