"""Source: https://github.com/jax-ml/jax/issues/9578 ("jit-compilable idx_n_th_occurence": `jnp.where(arr == arr)[n]` works without jit but builds a dynamically shaped index array under jit)."""
import jax
import jax.numpy as jnp


@jax.jit
def idx_nth_occurrence(operand, occurrence, n):
    arr = jnp.where(operand == occurrence, operand, jnp.nan)
    return jnp.where(arr == arr)[0][n]  # XLA: shape


# --- oracle ---
def ENTRY():
    return idx_nth_occurrence, (jnp.array([3.0, 1.0, 3.0, 2.0, 3.0]), 3.0, 1)
