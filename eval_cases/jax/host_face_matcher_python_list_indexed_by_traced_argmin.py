"""Source: https://github.com/jax-ml/jax/issues/5839 ("TypeError: list indices must be integers or slices, not DynamicJaxprTracer": a jitted face matcher builds a Python list of cosine distances and picks `dist[jnp.argmin(jnp.asarray(dist))]`; the index is a tracer, and a Python list cannot be indexed by one; the maintainers' fix is to index an array, `jnp.asarray(dist)[idx]`). Here a face-recognition head matches each query embedding against a small gallery and keeps the closest distance, indexing the Python list of distances with the traced argmin."""
import jax
import jax.numpy as jnp


def cosine_distance(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b) + 1e-8)


@jax.jit
def match_faces(queries, gallery):
    best = []
    for q in queries:
        dists = [cosine_distance(q, g) for g in gallery]
        best.append(dists[jnp.argmin(jnp.asarray(dists))])  # XLA: host
    return jnp.stack(best)


# --- oracle ---
def ENTRY():
    queries = jnp.array([[0.2, 0.9, 0.1, 0.4], [0.8, 0.1, 0.3, 0.2], [0.1, 0.2, 0.9, 0.5]])
    gallery = jnp.array([[0.1, 1.0, 0.0, 0.3], [0.9, 0.0, 0.2, 0.1], [0.0, 0.3, 1.0, 0.4], [0.5, 0.5, 0.5, 0.5]])
    return match_faces, (queries, gallery)
