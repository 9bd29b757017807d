"""Source: https://github.com/jax-ml/jax/issues/9578 (the maintainer's answer: `jnp.where(operand == occurrence, size=len(operand))[n]` gives the index array a static length and compiles with a traced n)."""
import jax
import jax.numpy as jnp


@jax.jit
def idx_nth_occurrence(operand, occurrence, n):
    return jnp.where(operand == occurrence, size=operand.shape[0], fill_value=-1)[0][n]


# --- oracle ---
def ENTRY():
    return idx_nth_occurrence, (jnp.array([3.0, 1.0, 3.0, 2.0, 3.0]), 3.0, 1)
