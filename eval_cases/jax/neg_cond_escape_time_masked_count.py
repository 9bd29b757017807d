"""Source: https://github.com/jax-ml/jax/issues/24740 (near miss: the escape time counted with a mask over a fixed number of iterations, no Python branch on a tracer)."""
import jax
import jax.numpy as jnp

MAX_ITER = 10


@jax.jit
def escape_time(c):
    z = jnp.zeros_like(c)
    count = jnp.array(0)
    for _ in range(MAX_ITER):
        z = jnp.where(jnp.abs(z) > 2.0, z, z * z + c)
        count = count + (jnp.abs(z) <= 2.0)
    return count


# --- oracle ---
def ENTRY():
    return escape_time, (jnp.array(0.3 + 0.6j, dtype=jnp.complex64),)
