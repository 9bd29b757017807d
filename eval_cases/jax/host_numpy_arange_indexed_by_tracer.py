"""Source: https://github.com/jax-ml/jax/issues/553 ("np.arange weirdness with jit": `np.arange(x.shape[0])[x]` builds a host NumPy array and indexes it with a tracer, which NumPy cannot do)."""
import jax
import numpy as np


@jax.jit
def permuted_positions(perm):
    positions = np.arange(perm.shape[0])[perm]  # XLA: host
    return positions * 2


# --- oracle ---
def ENTRY():
    return permuted_positions, (jax.numpy.array([2, 0, 1], dtype=jax.numpy.int32),)
