"""Source: https://github.com/jax-ml/jax/issues/15761 ("Jax jit-compile functions many times": a jitted function that loops over an array of indices was timed for index arrays of lengths 5, 8, 10, 10, 10; it compiled three times, once per new length, because every new input shape is a new compilation; only the repeated length hit the cache). Here an un-jitted retrieval loop calls a jitted feature-gathering function with a candidate index array whose length changes from query to query."""
import jax
import jax.numpy as jnp


@jax.jit
def gather_scores(table, query, indices):
    out = jnp.zeros(len(indices))
    for slot, j in enumerate(indices):
        out = out.at[slot].set(table[j] @ query)
    return out


def score_candidates(table, query, candidates):
    return gather_scores(table, query, candidates)  # XLA: retrace


TABLE = jnp.linspace(-1.0, 1.0, 20 * 4).reshape(20, 4)


# --- oracle ---
WRAP = False


def ENTRY():
    return score_candidates, (TABLE, jnp.array([0.3, -0.1, 0.2, 0.5]), jnp.arange(5))


def ALT_ARGS():
    return [(TABLE, jnp.array([0.1, 0.4, -0.2, 0.0]), jnp.arange(8)),
            (TABLE, jnp.array([0.2, 0.2, 0.1, -0.3]), jnp.arange(2, 12))]
