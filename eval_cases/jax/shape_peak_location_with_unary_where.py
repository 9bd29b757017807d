"""Source: https://github.com/jax-ml/jax/issues/4585 ("Is it possible to make nonzero jittable": locating the unique maximum with `jnp.where(a == jnp.max(a))` has a data-dependent output size, so it fails under jit; argmax plus unravel_index is the static form)."""
import jax
import jax.numpy as jnp


def heatmap_peak(heatmap):
    rows, cols = jnp.where(heatmap == jnp.max(heatmap))  # XLA: shape
    return jnp.stack([rows[0], cols[0]])


def keypoints(heatmaps):
    return jnp.stack([heatmap_peak(h) for h in heatmaps])


# --- oracle ---
def ENTRY():
    h = jnp.zeros((2, 4, 4)).at[0, 1, 2].set(1.0).at[1, 3, 0].set(2.0)
    return keypoints, (h,)
