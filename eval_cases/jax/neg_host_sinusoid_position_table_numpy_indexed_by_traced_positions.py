"""Source: https://github.com/jax-ml/jax/issues/3133 (the fix the error message now suggests: turn the NumPy array into a JAX array, `jnp.asarray(table)[i]`, before indexing it with a tracer). Here the sinusoidal position table built with NumPy is converted once with `jnp.asarray` and the jitted embedding layer indexes the JAX array."""
import jax
import jax.numpy as jnp
import numpy as np

MAX_LEN, DIM = 32, 8


def sinusoid_table(max_len, dim):
    pos = np.arange(max_len)[:, None]
    rate = 1.0 / np.power(10000.0, np.arange(0, dim, 2) / dim)
    table = np.zeros((max_len, dim), np.float32)
    table[:, 0::2] = np.sin(pos * rate)
    table[:, 1::2] = np.cos(pos * rate)
    return table


POSITION_TABLE = jnp.asarray(sinusoid_table(MAX_LEN, DIM))


@jax.jit
def embed(token_embeddings, position_ids):
    pos = POSITION_TABLE[position_ids]
    return token_embeddings + pos


# --- oracle ---
def ENTRY():
    tokens = jnp.linspace(0.0, 1.0, 5 * DIM).reshape(5, DIM)
    return embed, (tokens, jnp.arange(3, 8))
