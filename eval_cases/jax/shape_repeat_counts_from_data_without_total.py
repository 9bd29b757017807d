"""Source: https://github.com/jax-ml/jax/issues/3614 ("shape hint arguments in lax numpy functions to enable compilation": jnp.repeat with traced repeat counts has a data-dependent output length unless a static total_repeat_length is given)."""
import jax
import jax.numpy as jnp


@jax.jit
def expand_segments(values, counts):
    return jnp.repeat(values, counts)  # XLA: shape


# --- oracle ---
def ENTRY():
    return expand_segments, (jnp.array([1.0, 2.0, 3.0]), jnp.array([2, 0, 1]))
