"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes20 (issue 11, the JAX fixer) with the fixer, as a time-series model averages each series over its first k observations, with k the shortest observed length in the batch."""
import jax
import jax.numpy as jnp


@jax.jit
def prefix_means(series, lengths):
    k = jnp.min(lengths)
    return jnp.mean(series[:, :k], axis=1)  # XLA: shape


# --- oracle ---
def ENTRY():
    series = jnp.cos(jnp.arange(3 * 6, dtype=jnp.float32)).reshape(3, 6)
    return prefix_means, (series, jnp.array([4, 5, 6]))
