"""Source: https://github.com/alonfnt/pcax/issues/3 ("ValueError: Non-hashable static arguments are not supported": pcax's _fit_full marks n_components static, and the caller passes it as a JAX array)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n_components")
def fit_full(x, n_components):  # XLA: retrace
    centered = x - x.mean(axis=0, keepdims=True)
    _, s, vt = jnp.linalg.svd(centered, full_matrices=False)
    return vt[:n_components], (s[:n_components] ** 2) / (x.shape[0] - 1)


def fit(x, n_components):
    return fit_full(x, n_components=jnp.asarray(n_components))


# --- oracle ---
WRAP = False


def ENTRY():
    return fit, (jnp.arange(12.0).reshape(4, 3) ** 1.5, 2)
