"""Source: https://github.com/jax-ml/jax/pull/25800 (lax.switch / lax.cond need every branch to return the same output structure and shapes: "branch 0 and 1 outputs must have same type structure"; here one pooling branch keeps the sequence axis and the other reduces it)."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def pool(x, mode):
    return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)  # XLA: cond


# --- oracle ---
def ENTRY():
    return pool, (jnp.arange(6.0).reshape(3, 2), 0)
