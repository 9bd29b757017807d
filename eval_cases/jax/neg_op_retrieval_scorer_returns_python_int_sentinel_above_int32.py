"""Source: https://github.com/jax-ml/jax/issues/15631 ("Include the return path when reporting an overflow on a `jit` function output": a Python int above the int32 range returned from a jitted function raises OverflowError). The arrangement that avoids it: the jitted scorer returns only arrays, and the caller attaches the Python-int "no match" sentinel outside `jax.jit`. (Nearest-neighbour retrieval scorer returning top scores and a sentinel id.)"""
import jax
import jax.numpy as jnp

NO_MATCH_ID = 2**63 - 1


@jax.jit
def _scores(query, keys, threshold):
    scores = keys @ query
    return scores, jnp.max(scores) > threshold


def score_candidates(query, keys, threshold):
    scores, matched = _scores(query, keys, threshold)
    return scores, matched, NO_MATCH_ID


# --- oracle ---
WRAP = False


def ENTRY():
    query = jnp.array([0.2, -0.1, 0.7, 0.4])
    keys = jnp.arange(6 * 4, dtype=jnp.float32).reshape(6, 4) / 24.0
    return score_candidates, (query, keys, jnp.float32(0.5))
