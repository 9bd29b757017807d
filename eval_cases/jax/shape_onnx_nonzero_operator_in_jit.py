"""Source: https://github.com/google/jaxonnxruntime/issues/29 ("Cannot jax.jit the nonzero operator": the ONNX NonZero converter returns `jnp.stack(jnp.nonzero(x))`, whose shape depends on the data)."""
import jax
import jax.numpy as jnp


def onnx_nonzero(x):
    return jnp.stack(jnp.nonzero(x))  # XLA: shape


def onnx_gather_nd_count(x):
    idx = onnx_nonzero(x)
    return idx.shape[1], jnp.sum(x[tuple(idx)])


@jax.jit
def run_graph(x):
    _, total = onnx_gather_nd_count(x)
    return total


# --- oracle ---
def ENTRY():
    return run_graph, (jnp.array([[0.0, 1.5], [2.0, 0.0]]),)
