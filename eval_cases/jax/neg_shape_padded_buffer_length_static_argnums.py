"""Source: https://github.com/jax-ml/jax/issues/204 (the answer in that thread: make the buffer length a static argument, so lax.full gets a Python int shape)."""
from functools import partial

import jax
from jax import lax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def pad_first_row(first_row, pad_to_length):
    width = first_row.shape[0]
    empty = lax.full((pad_to_length, width), 0, first_row.dtype)
    return lax.dynamic_update_slice(empty, first_row[None, :], (0, 0))


# --- oracle ---
def ENTRY():
    return lambda row: pad_first_row(row, 4), (jnp.array([1, 2]),)
