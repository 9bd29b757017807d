"""Source: https://github.com/ayaka14732/llama-2-jax/issues/14 (TracerIntegerConversionError in the top-p generation loop: the number of tokens kept is computed from the cumulative probabilities and then used as a slice bound)."""
import jax
import jax.numpy as jnp


@jax.jit
def top_p_mass(logits, top_p):
    probs = jax.nn.softmax(logits)
    sorted_probs = jnp.sort(probs)[::-1]
    keep = jnp.sum(jnp.cumsum(sorted_probs) < top_p) + 1
    return jnp.sum(sorted_probs[:keep])  # XLA: shape


# --- oracle ---
def ENTRY():
    return top_p_mass, (jnp.array([2.0, 1.0, 0.5, -1.0]), 0.8)
