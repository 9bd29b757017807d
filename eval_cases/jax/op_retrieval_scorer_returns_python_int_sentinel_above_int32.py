"""Source: https://github.com/jax-ml/jax/issues/15631 ("Include the return path when reporting an overflow on a `jit` function output": `jax.jit(lambda x: (x, 2**64))(7)` fails with "OverflowError: Python int 18446744073709551616 too large to convert to int32", because a Python int returned from a jitted function becomes an int32 output; without `jit` the same function returns the int). Here a jitted retrieval scorer returns its scores together with the "no match" sentinel index, a Python int constant `2**63 - 1` taken from the index library's convention. (Nearest-neighbour retrieval scorer returning top scores and a sentinel id.)"""
import jax
import jax.numpy as jnp

NO_MATCH_ID = 2**63 - 1


@jax.jit
def score_candidates(query, keys, threshold):
    scores = keys @ query
    best = jnp.max(scores)
    return scores, best > threshold, NO_MATCH_ID  # XLA: op


# --- oracle ---
def ENTRY():
    query = jnp.array([0.2, -0.1, 0.7, 0.4])
    keys = jnp.arange(6 * 4, dtype=jnp.float32).reshape(6, 4) / 24.0
    return score_candidates, (query, keys, jnp.float32(0.5))
