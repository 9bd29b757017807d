"""Source: https://github.com/aesara-devs/aesara/issues/43 ("Jax 0.2 does not support jitting reshape": ConcretizationTypeError in jax.numpy.reshape because the new size is computed with a traced comparison and where)."""
import jax
import jax.numpy as jnp


@jax.jit
def fold_rows(x, n_rows):
    rows = jnp.where(n_rows < x.shape[0], n_rows, x.shape[0])
    return jnp.reshape(x[: x.shape[0]], (rows, -1))  # XLA: shape


# --- oracle ---
def ENTRY():
    return fold_rows, (jnp.arange(12.0), 3)
