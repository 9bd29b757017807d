"""Source: https://github.com/jax-ml/jax/issues/204 ("Error using dynamic_update_slice with jit": the padded buffer is created with lax.full((pad_to_length, width)) where pad_to_length is a traced argument)."""
import jax
from jax import lax
import jax.numpy as jnp


@jax.jit
def pad_first_row(first_row, pad_to_length):
    width = first_row.shape[0]
    empty = lax.full((pad_to_length, width), 0, first_row.dtype)  # XLA: shape
    return lax.dynamic_update_slice(empty, first_row[None, :], (0, 0))


# --- oracle ---
def ENTRY():
    return pad_first_row, (jnp.array([1, 2]), 4)
