"""Source: https://github.com/alexOarga/haiku-geometric/issues/3 ("Make layers JIT-able": the library's graph layers could not be jitted because they derive the number of nodes from the edge arrays at run time; making them JIT-able "would require specifying the number of nodes in a graph beforehand during compilation time"). Here a graph-convolution layer aggregates its messages with `jax.ops.segment_sum`, whose `num_segments` it computes as `jnp.max(receivers) + 1` inside the jitted forward pass."""
import jax
import jax.numpy as jnp


@jax.jit
def gcn_layer(node_feats, senders, receivers, weight):
    messages = node_feats[senders] @ weight
    num_nodes = jnp.max(receivers) + 1
    aggregated = jax.ops.segment_sum(messages, receivers, num_segments=num_nodes)  # XLA: shape
    degree = jax.ops.segment_sum(jnp.ones_like(receivers, dtype=messages.dtype), receivers, num_segments=num_nodes)
    return jax.nn.relu(aggregated / jnp.maximum(degree, 1.0)[:, None])


# --- oracle ---
def ENTRY():
    node_feats = jnp.arange(5 * 3, dtype=jnp.float32).reshape(5, 3) / 10.0
    senders = jnp.array([0, 1, 2, 3, 4, 0])
    receivers = jnp.array([1, 2, 3, 4, 0, 2])
    weight = jnp.array([[0.5, -0.2], [0.1, 0.3], [-0.3, 0.4]])
    return gcn_layer, (node_feats, senders, receivers, weight)
