"""Source: https://github.com/jax-ml/jax/issues/4409 (near miss, the maintainer's fix: compute the count with NumPy on the static shape)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def split_keys(key, mu):
    depth = int(np.log2(mu.shape[0])) + 1
    num_splittings = 2 ** (depth - 1) - 1
    keys = jax.random.split(key, num_splittings)
    return keys.shape[0] * jnp.sum(mu)


# --- oracle ---
def ENTRY():
    return split_keys, (jax.random.PRNGKey(0), jnp.ones([4, 2]))
