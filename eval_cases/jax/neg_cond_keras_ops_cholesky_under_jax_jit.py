"""Source: https://github.com/keras-team/keras/issues/19622 ("keras.ops.linalg.cholesky can't JIT" with the JAX backend (a Python `if` on a NaN check raised TracerBoolConversionError in Keras 3.3); with the installed Keras the call compiles under jax.jit)."""
import os

os.environ.setdefault("KERAS_BACKEND", "jax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402


@jax.jit
def gaussian_log_det(cov):
    chol = keras.ops.linalg.cholesky(cov)
    return 2.0 * jnp.sum(jnp.log(jnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)


# --- oracle ---
def ENTRY():
    m = jnp.arange(18.0).reshape(2, 3, 3) / 18.0
    return gaussian_log_det, (m @ jnp.swapaxes(m, -1, -2) + jnp.eye(3)[None],)
