"""Source: https://github.com/jax-ml/jax/issues/553 (the workaround from the thread: build the positions with lax.iota / jnp.arange, a JAX array that a tracer can index)."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def permuted_positions(perm):
    positions = lax.iota(jnp.int32, perm.shape[0])[perm]
    return positions * 2


# --- oracle ---
def ENTRY():
    return permuted_positions, (jnp.array([2, 0, 1], dtype=jnp.int32),)
