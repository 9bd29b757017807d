"""Source: https://github.com/jax-ml/jax/pull/38612 (near miss: the documented jittable form keeps a static shape; masking the discarded boxes gives the same sum). Here the jitted detector post-processing weights each box area by the keep mask instead of compressing the array."""
import jax
import jax.numpy as jnp


@jax.jit
def confident_box_area(boxes, scores, threshold):
    keep = scores > threshold
    widths = boxes[:, 2] - boxes[:, 0]
    heights = boxes[:, 3] - boxes[:, 1]
    return jnp.sum(jnp.where(keep, widths * heights, 0.0))


# --- oracle ---
def ENTRY():
    boxes = jnp.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0], [0.5, 0.5, 1.0, 1.5], [2.0, 0.0, 4.0, 1.0]])
    return confident_box_area, (boxes, jnp.array([0.9, 0.2, 0.7, 0.4]), 0.5)
