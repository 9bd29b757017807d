"""Source: https://github.com/jax-ml/jax/pull/3670 ("A compilable version of np.repeat": `jnp.repeat` with array-valued `repeats` has an output length equal to `sum(repeats)`, which is not known while tracing, so it cannot be compiled unless the new `total_repeat_length` keyword gives the length statically). Here a jitted graph-pooling step broadcasts each segment's mean back to its nodes with `jnp.repeat` over the traced segment sizes."""
import jax
import jax.numpy as jnp


@jax.jit
def center_by_segment(values, segment_sizes):
    segment_ids = jnp.repeat(jnp.arange(segment_sizes.shape[0]), segment_sizes)  # XLA: shape
    sums = jax.ops.segment_sum(values, segment_ids, num_segments=segment_sizes.shape[0])
    means = sums / segment_sizes[:, None]
    return values - means[segment_ids]


# --- oracle ---
def ENTRY():
    values = jnp.arange(12.0).reshape(6, 2)
    return center_by_segment, (values, jnp.array([2, 3, 1]))
