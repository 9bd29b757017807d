"""Source: https://github.com/jax-ml/jax/issues/10231 (near miss, the documented fix: jnp.unique with a static size and fill_value compiles)."""
import jax
import jax.numpy as jnp

MAX_LEVELS = 4


@jax.jit
def level_counts(age_idx):
    levels = jnp.unique(age_idx, size=MAX_LEVELS, fill_value=-1)
    return jnp.sum(age_idx[:, None] == levels[None, :], axis=0)


# --- oracle ---
def ENTRY():
    return level_counts, (jnp.array([0, 1, 1, 2, 0]),)
