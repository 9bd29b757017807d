"""Source: https://github.com/ott-jax/ott/pull/114 (the fix: give `jnp.repeat` a static `total_repeat_length`; originally: "segment_sinkhorn": a reviewer's jitted call `_segment_interface(x, y, ..., num_per_segment_x=jnp.array([10, 10]), ...)` fails with a ConcretizationTypeError, since the segment ids are built from the per-segment counts with a data-dependent length). Here the repeat passes `total_repeat_length` from the point cloud's static size."""
import jax
import jax.numpy as jnp


def segment_ids_from_counts(num_per_segment, total):
    return jnp.repeat(jnp.arange(num_per_segment.shape[0]), num_per_segment, total_repeat_length=total)


def segmented_mean_cost(x, y, num_per_segment_x, num_per_segment_y):
    seg_x = segment_ids_from_counts(num_per_segment_x, x.shape[0])
    seg_y = segment_ids_from_counts(num_per_segment_y, y.shape[0])
    n_seg = num_per_segment_x.shape[0]
    mean_x = jax.ops.segment_sum(x, seg_x, num_segments=n_seg) / num_per_segment_x[:, None]
    mean_y = jax.ops.segment_sum(y, seg_y, num_segments=n_seg) / num_per_segment_y[:, None]
    return jnp.sum((mean_x - mean_y) ** 2, axis=-1)


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = jnp.linspace(-0.5, 1.5, 24).reshape(8, 3)
    return segmented_mean_cost, (x, y, jnp.array([4, 4]), jnp.array([3, 5]))
