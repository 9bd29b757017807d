"""Written for fixes19 (issue 11, the JAX fixer): non-overlapping window means reshape a signal to `(-1, width)` with the window width passed as an argument."""
import jax
import jax.numpy as jnp


@jax.jit
def window_means(x, width):
    return x.reshape(-1, width).mean(axis=1)  # XLA: shape


# --- oracle ---
def ENTRY():
    return window_means, (jnp.arange(12.0), 4)
