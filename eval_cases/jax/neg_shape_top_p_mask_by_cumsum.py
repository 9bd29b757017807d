"""Source: https://github.com/ayaka14732/llama-2-jax/issues/14 (the jit-compatible form of top-p: keep the sorted array at full length and mask the tokens past the nucleus instead of slicing to a traced length)."""
import jax
import jax.numpy as jnp


@jax.jit
def top_p_mass(logits, top_p):
    probs = jax.nn.softmax(logits)
    sorted_probs = jnp.sort(probs)[::-1]
    cum = jnp.cumsum(sorted_probs)
    in_nucleus = (cum - sorted_probs) < top_p
    return jnp.sum(jnp.where(in_nucleus, sorted_probs, 0.0))


# --- oracle ---
def ENTRY():
    return top_p_mass, (jnp.array([2.0, 1.0, 0.5, -1.0]), 0.8)
