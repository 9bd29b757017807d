"""Source: https://github.com/jax-ml/jax/issues/7090 ("Support size and axis argument for jnp.unique": finding the unique vectors of a set under jit; with both size and axis now supported, the call compiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def unique_directions(vectors):
    return jnp.unique(vectors, axis=0, size=3, fill_value=0.0)


# --- oracle ---
def ENTRY():
    return unique_directions, (jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]),)
