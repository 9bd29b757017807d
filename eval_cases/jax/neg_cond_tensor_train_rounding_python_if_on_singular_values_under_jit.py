"""Source: https://github.com/jax-ml/jax/issues/3740 (fix twin: the answer recommends array operations such as `jnp.where` instead of value-dependent Python control flow). The same tensor-train core truncation zeroes the singular values below the static threshold with `jnp.where`; the singular values are sorted, so the kept prefix is the same and every shape stays static. (Tensor-train core truncation before the next sweep of a TT-rounding pass.)"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def truncate_core(core, delta):
    rows, cols = core.shape
    u, s, vt = jnp.linalg.svd(core, full_matrices=False)
    kept = jnp.where(s >= delta, s, 0.0)
    return (u * kept) @ vt


# --- oracle ---
def ENTRY():
    base = jnp.outer(jnp.linspace(1.0, 2.0, 6), jnp.linspace(-1.0, 1.0, 5))
    noise = jnp.sin(jnp.arange(30, dtype=jnp.float32)).reshape(6, 5) * 1e-3
    return truncate_core, (base + noise, 0.05)
