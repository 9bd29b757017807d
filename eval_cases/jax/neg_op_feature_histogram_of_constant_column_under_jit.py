"""Source: https://github.com/jax-ml/jax/pull/3745 ("Fix compilation bug in histogram_bin_edges": "Previously the logic was incorrect with a range of span zero when jit compiled", because the zero-span widening of the bin range was skipped for traced inputs). No longer reproduces on jax 0.10.2: under `jax.jit` a histogram of a constant column gets the same widened edges as without it. Here a jitted data-quality step histograms each feature column of a batch, one of which is constant, and returns the counts and bin edges. (Per-feature histograms for a data-drift monitor.)"""
import jax
import jax.numpy as jnp

N_BINS = 4


@jax.jit
def feature_histograms(batch):
    counts, edges = [], []
    for j in range(batch.shape[1]):
        c, e = jnp.histogram(batch[:, j], bins=N_BINS)
        counts.append(c)
        edges.append(e)
    return jnp.stack(counts), jnp.stack(edges)


# --- oracle ---
def ENTRY():
    col = jnp.linspace(-1.0, 2.0, 12)
    batch = jnp.stack([col, jnp.full((12,), 3.5), col ** 2], axis=1)
    return feature_histograms, (batch,)
