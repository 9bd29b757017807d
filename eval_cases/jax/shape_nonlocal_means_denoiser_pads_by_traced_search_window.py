"""Source: https://github.com/jax-ml/jax/issues/5550 (a jitted non-local-means denoiser `nlm(img, search_window)` calls `jnp.pad(img, (search_window, search_window))`; `search_window` is a traced argument, so the pad width cannot be read and tracing fails; jax#5558 turned the error into a ConcretizationTypeError that points at `static_argnums`). Here an image denoiser pads by a search window passed as an ordinary argument of the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def nonlocal_means(image, search_window, bandwidth):
    padded = jnp.pad(image, search_window, mode="reflect")  # XLA: shape
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
