"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as the embedding of the best-scoring class, indexed with `int(jnp.argmax(...))`."""
import jax
import jax.numpy as jnp


@jax.jit
def best_embedding(table, scores):
    best = int(jnp.argmax(scores))  # XLA: cond
    return table[best] * 2.0


# --- oracle ---
def ENTRY():
    return best_embedding, (jnp.arange(12.0).reshape(4, 3), jnp.array([0.1, 0.7, 0.3, 0.2]))
