"""Source: https://github.com/jax-ml/jax/issues/15761 (a jitted function compiles once per input shape; the usual remedy is to pad the variable-length input to one fixed length and carry a mask, so every call has the same shape). Here the un-jitted retrieval loop pads each candidate index array to a fixed `MAX_CANDIDATES` with a validity mask before calling the jitted feature-gathering function, but it pads and slices with eager `jax.numpy` ops (`.at[:n].set`, `[:n]`) whose own compiled kernels depend on `n`. Written as a near miss; the oracle measured new compilations on the later calls (the eager padding ops compile per length), so it is a recompile case."""
import jax
import jax.numpy as jnp

MAX_CANDIDATES = 12


@jax.jit
def gather_scores(table, query, indices, mask):
    scores = table[indices] @ query
    return jnp.where(mask, scores, 0.0)


def score_candidates(table, query, candidates):
    n = candidates.shape[0]
    padded = jnp.zeros(MAX_CANDIDATES, jnp.int32).at[:n].set(candidates)  # XLA: retrace
    mask = jnp.arange(MAX_CANDIDATES) < n
    return gather_scores(table, query, padded, mask)[:n]  # XLA: retrace


TABLE = jnp.linspace(-1.0, 1.0, 20 * 4).reshape(20, 4)


# --- oracle ---
WRAP = False


def ENTRY():
    return score_candidates, (TABLE, jnp.array([0.3, -0.1, 0.2, 0.5]), jnp.arange(5))


def ALT_ARGS():
    return [(TABLE, jnp.array([0.1, 0.4, -0.2, 0.0]), jnp.arange(8)),
            (TABLE, jnp.array([0.2, 0.2, 0.1, -0.3]), jnp.arange(2, 12))]
