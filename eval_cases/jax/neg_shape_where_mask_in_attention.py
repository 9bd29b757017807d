"""Source: https://github.com/probml/probml-notebooks/pull/70 (the fix in that PR: replace the boolean-index update with jnp.where, which keeps the shape static and compiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_attention(q, k, v, valid):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    scores = jnp.where(valid, scores, -1e6)
    return jax.nn.softmax(scores, axis=-1) @ v


# --- oracle ---
def ENTRY():
    q = jnp.arange(6.0).reshape(2, 3) / 6.0
    k = jnp.arange(9.0).reshape(3, 3) / 9.0
    valid = jnp.array([[True, True, False], [True, False, False]])
    return masked_attention, (q, k, k * 2.0, valid)
