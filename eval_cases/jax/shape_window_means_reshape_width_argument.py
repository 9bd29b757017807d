"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as non-overlapping window means reshape a signal to `(-1, width)` with the window width passed as an argument."""
import jax
import jax.numpy as jnp


@jax.jit
def window_means(x, width):
    return x.reshape(-1, width).mean(axis=1)  # XLA: shape


# --- oracle ---
def ENTRY():
    return window_means, (jnp.arange(12.0), 4)
