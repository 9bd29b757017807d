"""Source: https://github.com/jax-ml/jax/issues/35090 (the report's own workaround: without `jax.jit` on the inner helper, its result stays a Python int computed from the static argument, and `jnp.arange` gets a concrete length). Here the length helper is a plain Python function."""
from functools import partial

import jax
import jax.numpy as jnp


def table_length(max_len):
    return max_len + 1


@partial(jax.jit, static_argnums=(1,))
def add_positions(embeddings, max_len):
    positions = jnp.arange(table_length(max_len))
    freqs = jnp.exp(-jnp.arange(0, embeddings.shape[-1], 2) * (jnp.log(10000.0) / embeddings.shape[-1]))
    angles = positions[:, None] * freqs[None, :]
    table = jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)
    return embeddings + table[1:embeddings.shape[1] + 1]


# --- oracle ---
def ENTRY():
    return add_positions, (jnp.ones((2, 6, 8)) * 0.1, 6)
