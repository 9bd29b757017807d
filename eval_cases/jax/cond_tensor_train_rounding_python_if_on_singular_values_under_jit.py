"""Source: https://github.com/jax-ml/jax/issues/3740 ("Inequation inside Jax.jit function": a tensor-train rounding routine loops `for x in s: if x < delta:` over the singular values of each core; marking `delta` static with `static_argnums` does not help, because the singular values are computed inside the jitted function and are tracers, so the comparison cannot become a Python bool). Here a jitted low-rank truncation of a tensor-train core keeps the singular values above a static threshold with a Python loop and `if`. (Tensor-train core truncation before the next sweep of a TT-rounding pass.)"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def truncate_core(core, delta):
    rows, cols = core.shape
    u, s, vt = jnp.linalg.svd(core, full_matrices=False)
    kept = jnp.zeros_like(s)
    for i in range(s.shape[0]):
        if s[i] < delta:  # XLA: cond
            break
        kept = kept.at[i].set(s[i])
    return (u * kept) @ vt


# --- oracle ---
def ENTRY():
    base = jnp.outer(jnp.linspace(1.0, 2.0, 6), jnp.linspace(-1.0, 1.0, 5))
    noise = jnp.sin(jnp.arange(30, dtype=jnp.float32)).reshape(6, 5) * 1e-3
    return truncate_core, (base + noise, 0.05)
