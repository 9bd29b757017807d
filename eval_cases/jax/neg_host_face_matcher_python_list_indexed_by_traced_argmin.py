"""Source: https://github.com/jax-ml/jax/issues/5839 (the fix given there: convert the list to an array before indexing it with a traced index, `jnp.asarray(dist)[idx]`). Here the face-recognition head stacks the gallery distances into an array and indexes that array with the traced argmin."""
import jax
import jax.numpy as jnp


def cosine_distance(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b) + 1e-8)


@jax.jit
def match_faces(queries, gallery):
    best = []
    for q in queries:
        dists = jnp.asarray([cosine_distance(q, g) for g in gallery])
        best.append(dists[jnp.argmin(dists)])
    return jnp.stack(best)


# --- oracle ---
def ENTRY():
    queries = jnp.array([[0.2, 0.9, 0.1, 0.4], [0.8, 0.1, 0.3, 0.2], [0.1, 0.2, 0.9, 0.5]])
    gallery = jnp.array([[0.1, 1.0, 0.0, 0.3], [0.9, 0.0, 0.2, 0.1], [0.0, 0.3, 1.0, 0.4], [0.5, 0.5, 0.5, 0.5]])
    return match_faces, (queries, gallery)
