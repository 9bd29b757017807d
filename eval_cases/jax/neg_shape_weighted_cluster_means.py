"""Source: https://github.com/secretflow/spu/issues/148 (near miss: the centroid update written with one-hot weights instead of boolean indexing)."""
import jax
import jax.numpy as jnp

N_CLUSTERS = 2


@jax.jit
def update_centroids(x, labels):
    onehot = jax.nn.one_hot(labels, N_CLUSTERS)
    return (onehot.T @ x) / jnp.maximum(onehot.sum(axis=0), 1.0)[:, None]


# --- oracle ---
def ENTRY():
    x = jnp.array([[0.0, 1.0], [1.0, 1.0], [5.0, 4.0], [6.0, 5.0]])
    return update_centroids, (x, jnp.array([0, 0, 1, 1]))
