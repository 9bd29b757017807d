"""Source: https://github.com/jax-ml/jax/issues/15761 (a jitted function compiles once per input shape; the usual remedy is to pad the variable-length input to one fixed length and carry a mask, so every call has the same shape). Here the un-jitted retrieval loop pads each candidate index list on the host with NumPy to a fixed `MAX_CANDIDATES` with a validity mask, and the jitted feature-gathering function returns the padded scores and the mask."""
import jax
import jax.numpy as jnp
import numpy as np

MAX_CANDIDATES = 12


@jax.jit
def gather_scores(table, query, indices, mask):
    scores = table[indices] @ query
    return jnp.where(mask, scores, 0.0), mask


def score_candidates(table, query, candidates):
    candidates = np.asarray(candidates, dtype=np.int32)
    n = candidates.shape[0]
    padded = np.zeros(MAX_CANDIDATES, np.int32)
    padded[:n] = candidates
    mask = np.arange(MAX_CANDIDATES) < n
    return gather_scores(table, query, padded, mask)


TABLE = jnp.linspace(-1.0, 1.0, 20 * 4).reshape(20, 4)


# --- oracle ---
WRAP = False


def ENTRY():
    return score_candidates, (TABLE, jnp.array([0.3, -0.1, 0.2, 0.5]), np.arange(5))


def ALT_ARGS():
    return [(TABLE, jnp.array([0.1, 0.4, -0.2, 0.0]), np.arange(8)),
            (TABLE, jnp.array([0.2, 0.2, 0.1, -0.3]), np.arange(2, 12))]
