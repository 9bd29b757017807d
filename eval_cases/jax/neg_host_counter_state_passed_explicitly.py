"""Source: https://github.com/jax-ml/jax/pull/20732 (the fix the tutorial teaches: pass the counter state in and return the new state, so the jitted function is pure and every call advances the count)."""
import jax
import jax.numpy as jnp


@jax.jit
def count(n, x):
    n = n + 1
    return n, x + n


# --- oracle ---
def ENTRY():
    return count, (jnp.int32(0), jnp.int32(0))


def ALT_ARGS():
    return [(jnp.int32(1), jnp.int32(0)), (jnp.int32(2), jnp.int32(0))]
