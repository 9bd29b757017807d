"""Source: https://github.com/probml/probml-notebooks/pull/70 ("Boolean indices is not jit compatible": `x.at[x < 0].set(0)` in the multi-head attention notebook raises NonConcreteBooleanIndexError under jit)."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_attention(q, k, v, valid):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    scores = scores.at[~valid].set(-1e6)  # XLA: shape
    return jax.nn.softmax(scores, axis=-1) @ v


# --- oracle ---
def ENTRY():
    q = jnp.arange(6.0).reshape(2, 3) / 6.0
    k = jnp.arange(9.0).reshape(3, 3) / 9.0
    valid = jnp.array([[True, True, False], [True, False, False]])
    return masked_attention, (q, k, k * 2.0, valid)
