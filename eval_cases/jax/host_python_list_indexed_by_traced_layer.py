"""Source: https://github.com/jax-ml/jax/pull/5853 (`jax.jit(lambda i: [1, 2, 3][i])(0)`: a Python list indexed by a traced integer raises TracerIntegerConversionError; here per-layer scales selected by a traced layer index)."""
import jax
import jax.numpy as jnp

LAYER_SCALES = [1.0, 0.5, 0.25]


@jax.jit
def scaled_residual(x, layer_idx):
    return x * LAYER_SCALES[layer_idx]  # XLA: host


# --- oracle ---
def ENTRY():
    return scaled_residual, (jnp.arange(3.0), 1)
