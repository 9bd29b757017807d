"""Source: https://github.com/jax-ml/jax/issues/4418 (near miss, the maintainer's answer: the three-argument jnp.where keeps the shape static)."""
import jax
import jax.numpy as jnp


@jax.jit
def zero_empty_rows(dataset):
    mask = jnp.where(dataset == 0, 0.0, 1.0)
    return dataset * mask


# --- oracle ---
def ENTRY():
    return zero_empty_rows, (jnp.array([[1.0, 2.0, 0.0], [1.0, 4.0, 0.0], [0.0, 0.0, 0.0]]),)
