"""Source: https://github.com/alexOarga/haiku-geometric/issues/3 (what the issue names as the way to make the layers JIT-able: the number of nodes must be known at compile time; the node-feature array's static leading dimension gives it). Here the graph-convolution layer takes `num_segments` from `node_feats.shape[0]`, so `jax.ops.segment_sum` gets a Python int under `jax.jit`."""
import jax
import jax.numpy as jnp


@jax.jit
def gcn_layer(node_feats, senders, receivers, weight):
    messages = node_feats[senders] @ weight
    num_nodes = node_feats.shape[0]
    aggregated = jax.ops.segment_sum(messages, receivers, num_segments=num_nodes)
    degree = jax.ops.segment_sum(jnp.ones_like(receivers, dtype=messages.dtype), receivers, num_segments=num_nodes)
    return jax.nn.relu(aggregated / jnp.maximum(degree, 1.0)[:, None])


# --- oracle ---
def ENTRY():
    node_feats = jnp.arange(5 * 3, dtype=jnp.float32).reshape(5, 3) / 10.0
    senders = jnp.array([0, 1, 2, 3, 4, 0])
    receivers = jnp.array([1, 2, 3, 4, 0, 2])
    weight = jnp.array([[0.5, -0.2], [0.1, 0.3], [-0.3, 0.4]])
    return gcn_layer, (node_feats, senders, receivers, weight)
