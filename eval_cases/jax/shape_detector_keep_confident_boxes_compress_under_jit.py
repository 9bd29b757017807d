"""Source: https://github.com/jax-ml/jax/pull/38612 ("Raise clear error for jnp.compress/jnp.extract under jit without size": the output length of `jnp.compress`/`jnp.extract` is the number of true conditions, so under `jit` they need the static `size` argument). Here a jitted detector post-processing step keeps the boxes above a score threshold with `jnp.compress`."""
import jax
import jax.numpy as jnp


@jax.jit
def confident_box_area(boxes, scores, threshold):
    keep = scores > threshold
    kept = jnp.compress(keep, boxes, axis=0)  # XLA: shape
    widths = kept[:, 2] - kept[:, 0]
    heights = kept[:, 3] - kept[:, 1]
    return jnp.sum(widths * heights)


# --- oracle ---
def ENTRY():
    boxes = jnp.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0], [0.5, 0.5, 1.0, 1.5], [2.0, 0.0, 4.0, 1.0]])
    return confident_box_area, (boxes, jnp.array([0.9, 0.2, 0.7, 0.4]), 0.5)
