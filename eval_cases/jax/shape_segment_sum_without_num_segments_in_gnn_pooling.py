"""Source: https://github.com/jax-ml/jax/issues/6350 ("jax.ops.segment_sum incompatible with jit": `jax.jit(jax.ops.segment_sum)(c, b)` fails with a ConcretizationTypeError from `num_segments = int(num_segments)`, since without `num_segments` the number of segments is computed from the traced segment ids). Here a graph network's jitted loss aggregates edge messages at their receivers with `segment_sum` and no `num_segments`."""
import jax
import jax.numpy as jnp


def message_passing(params, nodes, edges, senders, receivers):
    messages = jnp.tanh(jnp.concatenate([nodes[senders], edges], axis=-1) @ params["w_msg"])
    aggregated = jax.ops.segment_sum(messages, receivers)  # XLA: shape
    return jax.nn.relu(jnp.concatenate([nodes, aggregated], axis=-1) @ params["w_node"])


def graph_loss(params, nodes, edges, senders, receivers, targets):
    h = message_passing(params, nodes, edges, senders, receivers)
    pred = jnp.sum(h, axis=0) @ params["w_out"]
    return jnp.mean((pred - targets) ** 2)


loss_and_grad = jax.jit(jax.value_and_grad(graph_loss))


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"w_msg": jnp.full((5, 4), 0.1), "w_node": jnp.full((7, 4), 0.1), "w_out": jnp.full((4, 2), 0.2)}
    nodes = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    edges = jnp.linspace(0.0, 1.0, 10).reshape(5, 2)
    senders = jnp.array([0, 1, 2, 3, 0])
    receivers = jnp.array([1, 2, 3, 0, 2])
    return loss_and_grad, (params, nodes, edges, senders, receivers, jnp.array([0.5, -0.5]))
