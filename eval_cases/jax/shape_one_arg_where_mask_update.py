"""Source: https://github.com/jax-ml/jax/issues/4418 (advanced boolean indexing: the one-argument jnp.where inside jit has a data-dependent size)."""
import jax
import jax.numpy as jnp


@jax.jit
def zero_empty_rows(dataset):
    rows, cols = jnp.where(dataset == 0)  # XLA: shape
    mask = jnp.ones(dataset.shape).at[rows, cols].set(0.0)
    return dataset * mask


# --- oracle ---
def ENTRY():
    return zero_empty_rows, (jnp.array([[1.0, 2.0, 0.0], [1.0, 4.0, 0.0], [0.0, 0.0, 0.0]]),)
