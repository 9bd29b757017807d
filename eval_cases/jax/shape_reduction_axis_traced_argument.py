"""Source: https://github.com/jax-ml/jax/pull/4412 (`jit(jnp.sum)(x, 0)`: the axis argument is traced, "Unexpected type of axis argument" / ConcretizationTypeError; here a pooling helper takes the axis as an ordinary argument)."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_mean_pool(features, mask, axis):
    total = jnp.sum(features * mask[..., None], axis=axis)  # XLA: shape
    return total / jnp.maximum(jnp.sum(mask, axis=axis)[..., None], 1.0)


# --- oracle ---
def ENTRY():
    return masked_mean_pool, (jnp.arange(12.0).reshape(2, 3, 2), jnp.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), 1)
