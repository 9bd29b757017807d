"""Source: https://github.com/jax-ml/jax/pull/3670 (the documented fix: pass `total_repeat_length`, a static int, so `jnp.repeat` with traced `repeats` compiles). Here the jitted graph-pooling step gives `jnp.repeat` the number of nodes, read from the static `.shape` of the node features."""
import jax
import jax.numpy as jnp


@jax.jit
def center_by_segment(values, segment_sizes):
    n_nodes = values.shape[0]
    segment_ids = jnp.repeat(jnp.arange(segment_sizes.shape[0]), segment_sizes, total_repeat_length=n_nodes)
    sums = jax.ops.segment_sum(values, segment_ids, num_segments=segment_sizes.shape[0])
    means = sums / segment_sizes[:, None]
    return values - means[segment_ids]


# --- oracle ---
def ENTRY():
    values = jnp.arange(12.0).reshape(6, 2)
    return center_by_segment, (values, jnp.array([2, 3, 1]))
