"""Written for fixes19 (issue 11, the JAX fixer): the value at the first positive position, read through `jnp.nonzero(...)[0][0]` without `size=`."""
import jax
import jax.numpy as jnp


@jax.jit
def first_positive(x):
    idx = jnp.nonzero(x > 0)[0]  # XLA: shape
    return x[idx[0]]


# --- oracle ---
def ENTRY():
    return first_positive, (jnp.array([-1.0, -0.5, 2.0, 3.0, -4.0]),)
