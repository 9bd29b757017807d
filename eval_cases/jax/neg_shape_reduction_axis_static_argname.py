"""Source: https://github.com/jax-ml/jax/pull/4412 (fix recommended by the improved error: mark the axis as static with static_argnames, so jnp.sum gets a Python int)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axis",))
def masked_mean_pool(features, mask, axis):
    total = jnp.sum(features * mask[..., None], axis=axis)
    return total / jnp.maximum(jnp.sum(mask, axis=axis)[..., None], 1.0)


# --- oracle ---
def ENTRY():
    return lambda f, m: masked_mean_pool(f, m, axis=1), (jnp.arange(12.0).reshape(2, 3, 2),
                                                         jnp.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))
