"""Source: https://github.com/jax-ml/jax/issues/4798 ("jax.numpy.minimum returning traced value even if all inputs are concrete": in `@partial(jax.jit, static_argnums=(0,))`, `n_actual = jnp.minimum(jnp.shape(x)[0], n)` was a tracer although both inputs were Python ints, and `jnp.arange(n_actual)` then crashed; hawkinsp: expected since omnistaging). Here a retrieval head keeps the top `k` candidates, capped by the number of candidates with `jnp.minimum`, and builds position ids with `jnp.arange`."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def top_candidates(k, scores, embeddings):
    n_keep = jnp.minimum(scores.shape[0], k)
    order = jnp.argsort(-scores)
    positions = jnp.arange(n_keep)  # XLA: shape
    chosen = order[positions]
    return embeddings[chosen], scores[chosen]


def rerank(scores, embeddings):
    return top_candidates(8, scores, embeddings)


# --- oracle ---
WRAP = False


def ENTRY():
    scores = jnp.array([0.3, 0.9, 0.1, 0.5, 0.7])
    return rerank, (scores, jnp.linspace(-1.0, 1.0, 15).reshape(5, 3))
