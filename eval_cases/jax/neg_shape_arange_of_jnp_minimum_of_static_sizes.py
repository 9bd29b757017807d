"""Source: https://github.com/jax-ml/jax/issues/4798 (`jnp.minimum` of a static shape and a static argument returned a tracer under `jit`, so `jnp.arange` of it failed; the advice was to compute static quantities with Python/NumPy, not `jnp`). Here the cap is computed with the builtin `min`, which stays a Python int, so the position ids have a static length."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def top_candidates(k, scores, embeddings):
    n_keep = min(scores.shape[0], k)
    order = jnp.argsort(-scores)
    positions = jnp.arange(n_keep)
    chosen = order[positions]
    return embeddings[chosen], scores[chosen]


def rerank(scores, embeddings):
    return top_candidates(8, scores, embeddings)


# --- oracle ---
WRAP = False


def ENTRY():
    scores = jnp.array([0.3, 0.9, 0.1, 0.5, 0.7])
    return rerank, (scores, jnp.linspace(-1.0, 1.0, 15).reshape(5, 3))
