"""Source: https://github.com/jax-ml/jax/issues/35090 ("Nested jit changes behavior of static arguments": `my_arange(k)` is jitted with `k` static and returns `jnp.arange(add1(k))`, but `add1` is itself `jax.jit`-decorated, so its result is a traced array inside the outer trace and `jnp.arange` raises ConcretizationTypeError; removing the inner `jit` makes it work). Here a sinusoidal position table is sized by a length helper that is also jitted with a static argument."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def table_length(max_len):
    return max_len + 1


@partial(jax.jit, static_argnums=(1,))
def add_positions(embeddings, max_len):
    positions = jnp.arange(table_length(max_len))  # XLA: shape
    freqs = jnp.exp(-jnp.arange(0, embeddings.shape[-1], 2) * (jnp.log(10000.0) / embeddings.shape[-1]))
    angles = positions[:, None] * freqs[None, :]
    table = jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)
    return embeddings + table[1:embeddings.shape[1] + 1]


# --- oracle ---
def ENTRY():
    return add_positions, (jnp.ones((2, 6, 8)) * 0.1, 6)
