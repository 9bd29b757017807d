"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a greedy decoder collects argmax tokens in a Python list over `range(max_len)`, with `max_len` passed to the jitted function."""
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
