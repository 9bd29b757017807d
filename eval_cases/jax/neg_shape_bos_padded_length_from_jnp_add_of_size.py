"""Source: https://github.com/jax-ml/jax/issues/4449 (the advice there: do shape arithmetic with Python/NumPy on static sizes; originally: "Operations on static inputs/shapes yield concretization errors": inside a jitted function `count = jnp.add(arr.size, 1); jnp.ones((count,))` fails with "Shapes must be 1D sequences of concrete values of integer type" since omnistaging, while `arr.size + 1` works). Here the BOS-prefixed buffer is sized with `tokens.size + 1`."""
import jax
import jax.numpy as jnp

BOS_ID = 1


def add_bos(tokens):
    length = tokens.size + 1
    out = jnp.full((length,), BOS_ID, dtype=tokens.dtype)
    return out.at[1:].set(tokens)


def embed_with_bos(embedding, tokens):
    ids = add_bos(tokens)
    x = embedding[ids]
    positions = jnp.arange(ids.shape[0])[:, None] / 16.0
    return x + jnp.sin(positions)


# --- oracle ---
def ENTRY():
    embedding = jnp.linspace(-1.0, 1.0, 64).reshape(16, 4)
    return embed_with_bos, (embedding, jnp.array([5, 7, 9, 3], dtype=jnp.int32))
