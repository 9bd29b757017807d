"""Source: https://github.com/jax-ml/jax/issues/5550 (the fix the improved error message names: mark the pad width static, `jax.jit(..., static_argnums=...)`, so `jnp.pad` receives a Python int). Here the search window is a static argument of the jitted denoiser."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("search_window",))
def nonlocal_means(image, search_window, bandwidth):
    padded = jnp.pad(image, search_window, mode="reflect")
    height, width = image.shape
    weights_sum = jnp.zeros_like(image)
    accum = jnp.zeros_like(image)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            shifted = jax.lax.dynamic_slice(padded, (search_window + dy, search_window + dx), (height, width))
            weight = jnp.exp(-((shifted - image) ** 2) / bandwidth ** 2)
            weights_sum = weights_sum + weight
            accum = accum + weight * shifted
    return accum / weights_sum


# --- oracle ---
def ENTRY():
    image = jnp.sin(jnp.arange(64.0).reshape(8, 8) / 5.0)
    return nonlocal_means, (image, 2, 0.5)
