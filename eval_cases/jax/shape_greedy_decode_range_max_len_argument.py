"""Written for fixes19 (issue 11, the JAX fixer): a greedy decoder collects argmax tokens in a Python list over `range(max_len)`, with `max_len` passed to the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def decode(logits, max_len):
    tokens = []
    for t in range(max_len):  # XLA: shape
        tokens.append(jnp.argmax(logits[t]))
    return jnp.stack(tokens)


# --- oracle ---
def ENTRY():
    return decode, (jnp.cos(jnp.arange(6 * 5, dtype=jnp.float32)).reshape(6, 5), 4)
