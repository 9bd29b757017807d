"""Source: https://github.com/jax-ml/jax/issues/38603 (`jnp.compress` / `jnp.extract` called inside `jax.jit` without `size` crash with a TracerBoolConversionError: the `size=None` path keeps only the selected elements, whose number depends on the data; jax#38612 made the error point to the `size` argument). Here a detection post-processor keeps the boxes whose score passes a threshold with `jnp.compress` inside the jitted step, then averages them."""
import jax
import jax.numpy as jnp

SCORE_THRESHOLD = 0.4


@jax.jit
def confident_box_mean(boxes, scores):
    kept = jnp.compress(scores > SCORE_THRESHOLD, boxes, axis=0)  # XLA: shape
    return kept.mean(axis=0)


# --- oracle ---
def ENTRY():
    boxes = jnp.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0], [0.5, 0.5, 1.5, 2.5],
                       [2.0, 0.0, 4.0, 1.0], [1.0, 2.0, 2.0, 3.0], [0.0, 1.0, 1.0, 2.0]])
    scores = jnp.array([0.1, 0.9, 0.5, 0.2, 0.8, 0.3])
    return confident_box_mean, (boxes, scores)
