"""Source: https://github.com/jax-ml/jax/issues/24740 (TracerBoolConversionError: an escape-time loop returns early on `if jnp.abs(z) > 2.0` inside a transformed function)."""
import jax
import jax.numpy as jnp

MAX_ITER = 10


@jax.jit
def escape_time(c):
    z = jnp.zeros_like(c)
    for i in range(MAX_ITER):
        z = z * z + c
        if jnp.abs(z) > 2.0:  # XLA: cond
            return jnp.array(i)
    return jnp.array(MAX_ITER)


# --- oracle ---
def ENTRY():
    return escape_time, (jnp.array(0.3 + 0.6j, dtype=jnp.complex64),)
