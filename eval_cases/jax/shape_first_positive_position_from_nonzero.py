"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as the value at the first positive position, read through `jnp.nonzero(...)[0][0]` without `size=`."""
import jax
import jax.numpy as jnp


@jax.jit
def first_positive(x):
    idx = jnp.nonzero(x > 0)[0]  # XLA: shape
    return x[idx[0]]


# --- oracle ---
def ENTRY():
    return first_positive, (jnp.array([-1.0, -0.5, 2.0, 3.0, -4.0]),)
