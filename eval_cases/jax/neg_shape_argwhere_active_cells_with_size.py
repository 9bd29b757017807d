"""Source: https://github.com/jax-ml/jax/pull/6915 (near miss, the API it added: jnp.argwhere with a static size and a fill value, masked afterwards, compiles under jit)."""
import jax
import jax.numpy as jnp

MAX_ACTIVE = 4


@jax.jit
def active_cell_mean(grid):
    idx = jnp.argwhere(grid > 0.5, size=MAX_ACTIVE, fill_value=-1)
    valid = (idx[:, 0] >= 0)[:, None]
    total = jnp.sum(jnp.where(valid, idx, 0).astype(jnp.float32), axis=0)
    return total / jnp.maximum(jnp.sum(valid), 1)


# --- oracle ---
def ENTRY():
    return active_cell_mean, (jnp.array([[0.9, 0.1], [0.2, 0.7]]),)
