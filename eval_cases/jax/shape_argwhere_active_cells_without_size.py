"""Source: https://github.com/jax-ml/jax/pull/6915 ("jnp.argwhere: add optional size parameter for JIT compatibility": without size the number of returned indices depends on the data, so argwhere cannot be traced)."""
import jax
import jax.numpy as jnp


@jax.jit
def active_cell_mean(grid):
    idx = jnp.argwhere(grid > 0.5)  # XLA: shape
    return jnp.mean(idx.astype(jnp.float32), axis=0)


# --- oracle ---
def ENTRY():
    return active_cell_mean, (jnp.array([[0.9, 0.1], [0.2, 0.7]]),)
