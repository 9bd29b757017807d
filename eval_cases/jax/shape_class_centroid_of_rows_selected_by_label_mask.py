"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes20 (issue 11, the JAX fixer) with the fixer, as a prototype classifier averages the embeddings of the support rows of one class, selected by a boolean row mask, over axis 0."""
import jax
import jax.numpy as jnp


@jax.jit
def class_centroid(embeddings, labels, query):
    support = embeddings[labels == 1]  # XLA: shape
    centroid = jnp.mean(support, axis=0)
    return -jnp.sum((query - centroid) ** 2, axis=-1)


# --- oracle ---
def ENTRY():
    emb = jnp.sin(jnp.arange(6 * 4, dtype=jnp.float32)).reshape(6, 4)
    labels = jnp.array([1, 0, 1, 1, 0, 2])
    query = jnp.cos(jnp.arange(3 * 4, dtype=jnp.float32)).reshape(3, 4)
    return class_centroid, (emb, labels, query)
