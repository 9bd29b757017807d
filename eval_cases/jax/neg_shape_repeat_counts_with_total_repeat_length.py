"""Source: https://github.com/jax-ml/jax/issues/3614 (the shape hint that issue added for jnp.repeat: a static total_repeat_length makes the output length known, so traced counts compile)."""
import jax
import jax.numpy as jnp

MAX_TOKENS = 4


@jax.jit
def expand_segments(values, counts):
    return jnp.repeat(values, counts, total_repeat_length=MAX_TOKENS)


# --- oracle ---
def ENTRY():
    return expand_segments, (jnp.array([1.0, 2.0, 3.0]), jnp.array([2, 0, 1]))
