"""Source: https://github.com/jax-ml/jax/issues/3133 ("Tracing a function that indexes into Numpy array gives a poor error message": `g = lambda i: np.zeros((3, 3))[i, :]` works eagerly but fails under `jax.jit`, because indexing a raw NumPy array with a tracer calls NumPy's `__getitem__`, which tries to convert the tracer; the fix is `jnp.asarray(table)[i]` / `jax.device_put(table)[i]`). Here a jitted embedding layer looks up a sinusoidal position table, built once with NumPy, at traced position ids."""
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


POSITION_TABLE = sinusoid_table(MAX_LEN, DIM)


@jax.jit
def embed(token_embeddings, position_ids):
    pos = POSITION_TABLE[position_ids]  # XLA: host
    return token_embeddings + pos


# --- oracle ---
def ENTRY():
    tokens = jnp.linspace(0.0, 1.0, 5 * DIM).reshape(5, DIM)
    return embed, (tokens, jnp.arange(3, 8))
